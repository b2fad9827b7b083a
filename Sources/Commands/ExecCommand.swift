import Accounts
import Agent
import Foundation
import Spelling
import System

/// `authtui exec ACCOUNT [--var NAME] [--min-valid SECONDS] -- COMMAND [ARGS…]`: runs COMMAND
/// with ACCOUNT's access token in its environment (aws-vault's `exec`), so that the token is
/// never written to a file or put in an argument list another user's `ps` would show.
struct ExecCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "exec", summary: "Run COMMAND with ACCOUNT's access token in its environment.",
    details: """
      COMMAND (found on PATH) runs with the token in AUTHTUI_TOKEN (or --var NAME) and its
      expiry in AUTHTUI_TOKEN_EXPIRES_AT (NAME_EXPIRES_AT with --var; seconds since 1970,
      empty when the token does not expire), and its scheme in AUTHTUI_TOKEN_TYPE (Bearer, or
      DPoP for a DPoP-bound token, which needs a proof for each request: `authtui token
      ACCOUNT --header --for METHOD URL`), e.g.
        authtui exec simkl/alice -- sh -c 'curl -H "Authorization: Bearer $AUTHTUI_TOKEN" URL'
      NAME may not be one the loader, the C library or the shell reads (PATH, HOME, IFS, ENV,
      SHELL, BASH_ENV, LD_*, MALLOC_*, LC_*…) nor another AUTHTUI_ name (exit 2).
      The token is obtained as `token` obtains it: refreshed first when fewer than --min-valid
      seconds remain (default 60), from a running `authtui agent` when there is one (no
      passphrase needed), else from the vault; account errors exit as `token` does, before
      COMMAND starts. COMMAND gets no AUTHTUI_PASSPHRASE* variable. SIGINT, SIGTERM, SIGHUP,
      SIGQUIT, SIGUSR1 and SIGUSR2 sent to authtui are passed on to COMMAND, and authtui
      waits for it. The exit status is COMMAND's (128 + the signal's number when a signal
      ended it); 127 when COMMAND is not found, 126 when it cannot be run.
      """,
    // Everything after `--` is COMMAND's, options included: only ACCOUNT comes before it.
    arguments: [.required("ACCOUNT", \.account, .account), .commandAfterSeparator(\.command)],
    options: [
      .value(
        "var", \.variable, .execVariableName, "NAME", help: "the variable that holds the token",
        showsDefault: true),
      .minimumValidity(\.minimumValidity),
    ])

  var global = GlobalOptions()
  /// The account's name as given.
  var account = ""
  /// The variable the token goes in.
  var variable = "AUTHTUI_TOKEN"
  /// `--min-valid`, in seconds.
  var minimumValidity = 60
  /// COMMAND and its arguments.
  var command: [String] = []

  /// Runs COMMAND and ends this process with the status `status` gives: COMMAND's, which no
  /// `ExitCode` names.
  func run(console: Console) async -> ExitCode {
    exit(await status(console: console))
  }

  /// Runs COMMAND and gives the exit status authtui ends with: COMMAND's, or one of authtui's
  /// own (`ExitCode`) when COMMAND never started.
  func status(
    console: Console, environment: [String: String] = ProcessInfo.processInfo.environment
  ) async -> Int32 {
    // What the caller handed down (`3<file`), as the process found it before its first
    // thread, the agent's socket or URLSession's socket pairs; COMMAND gets those and no other.
    let handedDown = InheritedDescriptors.atStart
    let startedAt = Date()
    let name = command[0]
    let program: String
    switch ForegroundCommand.locate(name, environment: environment) {
    case .found(let path):
      program = path
    case .notFound:
      console.err("authtui: \(name): command not found (exec looks for it on PATH)")
      return 127
    case .notExecutable(let path):
      console.err("authtui: \(path): cannot be run (not an executable file)")
      return 126
    }
    let exportable: AgentExport
    do throws(CommandFailure) {
      exportable = try await token(startedAt: startedAt, console: console)
    } catch {
      console.err(error.line)
      return error.exitCode.rawValue
    }
    guard TerminalText.isClean(exportable.token) else {
      let failure = TokenCommand.unprintable(exportable.account.description)
      console.err(failure.line)
      return failure.exitCode.rawValue
    }
    var childEnvironment = PassphraseSource.withoutPassphrases(environment)
    childEnvironment[variable] = exportable.token
    childEnvironment[variable + "_EXPIRES_AT"] = EnvFile.expiryValue(exportable.expiresAt)
    childEnvironment["AUTHTUI_TOKEN_TYPE"] = exportable.tokenType
    return await ForegroundCommand.exitStatus(
      of: program, name: name, arguments: Array(command.dropFirst()),
      environment: childEnvironment, passing: InheritedDescriptors.stillHandedDown(handedDown),
      console: console)
  }

  /// The token and its expiry: from the agent for this vault when one runs, else from the
  /// vault unlocked here; refreshed first when fewer than `--min-valid` seconds remain.
  private func token(startedAt: Date, console: Console) async throws(CommandFailure)
    -> AgentExport
  {
    try await ExportCommand.exportable(
      account, global, startedAt: startedAt, minimumValidity: minimumValidity, console: console)
  }
}
