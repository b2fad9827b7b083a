/// A command that could not do its job: the exit status scripts see, and the one line for
/// standard error (without the `authtui: ` prefix), which names the problem and the fix.
struct CommandFailure: Error, Equatable, Sendable {
  let exitCode: ExitCode
  let message: String
  /// A stable machine name for scripts (`login --json`'s error event).
  var code: String

  init(exitCode: ExitCode, message: String, code: String? = nil) {
    self.exitCode = exitCode
    self.message = message
    self.code = code ?? exitCode.name
  }

  /// The line printed to standard error.
  var line: String { "authtui: \(message)" }
}
