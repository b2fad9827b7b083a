/// A command that could not do its job: the exit status scripts see, and the one line for
/// standard error (without the `authtui: ` prefix), which names the problem and the fix.
package struct CommandFailure: Error, Equatable, Sendable {
  /// The exit status.
  package let exitCode: ExitCode
  /// The sentence for standard error.
  package let message: String
  /// A stable machine name for scripts (`login --json`'s error event).
  package var code: String

  /// A failure exiting `exitCode`, saying `message`, named `code` (else the exit code's name).
  package init(exitCode: ExitCode, message: String, code: String? = nil) {
    self.exitCode = exitCode
    self.message = message
    self.code = code ?? exitCode.name
  }

  /// The line printed to standard error.
  package var line: String { "authtui: \(message)" }
}
