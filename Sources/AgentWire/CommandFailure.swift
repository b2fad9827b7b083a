/// A command that could not do its job: the exit status scripts see, a stable machine name, and
/// the one line for standard error (without the `authtui: ` prefix), which names the problem
/// and the fix.
///
/// One type on both sides of the agent's socket: a command throws it, the agent answers with it
/// (`{"ok":false,"exit":5,"code":"sign_in_needed","message":"…"}`, `AgentResponse.failure`),
/// and the caller, the small front included, prints it and exits with its status.
public struct CommandFailure: Error, Equatable, Sendable {
  /// The exit status (`exit` on the wire). An agent may send any status from 1 to 125; the
  /// front exits with it as it is, a command as `exitCode`.
  public let exitStatus: Int32
  /// A stable machine name for scripts (`code` on the wire; `login --json`'s error event):
  /// `sign_in_needed`, `other_vault`, `bad_request`…
  public var code: String
  /// The sentence for standard error (`message` on the wire).
  public let message: String

  /// A failure exiting `exitCode`, saying `message`, named `code` (else the exit code's name).
  public init(exitCode: ExitCode, message: String, code: String? = nil) {
    self.init(exitStatus: exitCode.rawValue, code: code ?? exitCode.name, message: message)
  }

  /// A failure as the wire carries it: exiting `exitStatus`, named `code`, saying `message`.
  public init(exitStatus: Int32, code: String, message: String) {
    self.exitStatus = exitStatus
    self.code = code
    self.message = message
  }

  /// The exit status as authtui names it; a status authtui does not define is 1.
  public var exitCode: ExitCode { ExitCode(rawValue: exitStatus) ?? .failure }

  /// The line printed to standard error.
  public var line: String { "authtui: \(message)" }
}
