/// A command that could not do its job: the exit status scripts see, and the one line for
/// standard error (without the `authtui: ` prefix), which names the problem and the fix.
struct CommandFailure: Error, Equatable, Sendable {
  let exitCode: ExitCode
  let message: String

  /// The line printed to standard error.
  var line: String { "authtui: \(message)" }
}
