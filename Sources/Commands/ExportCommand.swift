import Accounts
import Agent
import Foundation
import System
import Terminal

/// `authtui export ACCOUNT --env-file PATH [--var NAME]` and
/// `authtui export ACCOUNT --clipboard [--clear-after SECONDS]`.
struct ExportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "export",
    summary: "Put ACCOUNT's access token in an env file or on the clipboard.",
    details: """
      --env-file writes NAME='token' and NAME_EXPIRES_AT='seconds since 1970' (empty when the
      token does not expire), POSIX single-quoted so `. PATH` reads the token back exactly;
      the file is replaced atomically with mode 0600 and its other lines are kept. NAME
      defaults to PROVIDER_TOKEN (SIMKL_TOKEN); names the loader or the shell read (PATH,
      LD_*, LC_*…) or authtui's own AUTHTUI_ names are refused, as for `exec --var` (exit 2).
      A symlink is followed and its target replaced
      (the link stays); a FIFO, socket, device, folder or another user's file is refused.
      --clipboard copies with OSC 52 through the terminal (works over SSH and in tmux with
      `set -g set-clipboard on`; inside a tmux that drops it, with no wl-copy or xclip, nothing
      is copied and export says how to turn it on) and with wl-copy or xclip when there is a
      display; the message says which of them took the token; after
      --clear-after seconds (default 45; 0 keeps it) the clipboard is cleared if it still holds
      the token (over plain SSH the terminal cannot be asked, so it is cleared regardless).
      The token is refreshed first when less than a minute of it remains. A DPoP-bound token
      is refused (exit 1): without a fresh proof of the key authtui keeps it works for nobody;
      use `authtui token ACCOUNT --header --for METHOD URL` for each request instead.
      When `authtui agent` runs for this vault, it hands over the token and no passphrase is
      needed (this command still writes the file or the clipboard); AUTHTUI_NO_AGENT=1 skips it.
      """,
    arguments: [.required("ACCOUNT", \.account, .account)],
    options: [
      .value("env-file", \.envFile, .file, "PATH", help: "the env file to write"),
      .value(
        "var", \.variable, .envFileVariableName, "NAME",
        help: "the variable name (default PROVIDER_TOKEN)"),
      .flag("clipboard", \.clipboard, help: "copy to the clipboard instead"),
      .value(
        "clear-after", \.clearAfter, .seconds(), "SECONDS",
        help: "clear the clipboard after this long", showsDefault: true),
    ],
    // The two destinations, each with its own option.
    usage: "export ACCOUNT (--env-file PATH [--var NAME] | --clipboard [--clear-after SECONDS])")

  var global = GlobalOptions()
  /// The account's name as given.
  var account = ""
  /// `--env-file`: the file to write, or nil for the clipboard.
  var envFile: String?
  /// `--var`, else the provider's variable (`SIMKL_TOKEN`).
  var variable: String?
  /// `--clipboard`.
  var clipboard = false
  /// `--clear-after`, in seconds (0 keeps the token on the clipboard).
  var clearAfter = 45

  mutating func validate() throws(CommandFailure) {
    guard (envFile != nil) != clipboard else {
      throw CommandFailure(
        exitCode: .usage,
        message: "say where the token goes: --env-file PATH or --clipboard (one of them)")
    }
    if envFile == nil && variable != nil {
      throw CommandFailure(exitCode: .usage, message: "--var goes with --env-file")
    }
  }

  func run(console: Console) async -> ExitCode {
    let startedAt = Date()
    do throws(CommandFailure) {
      if let envFile {
        // Refused before the vault is unlocked: a FIFO, a device or a folder costs nothing.
        do throws(AccountsError) {
          try EnvFile.checkDestination(envFile)
        } catch {
          throw AccountAccess.failure(error)
        }
      }
      let exportable = try await Self.exportable(
        account, global, startedAt: startedAt, console: console)
      // A DPoP-bound token in a file or on the clipboard is useless without proofs.
      try TokenCommand.refuseBoundToken(exportable, refusing: "export")
      let token = exportable.token
      do throws(AccountsError) {
        if let envFile {
          let variable = variable ?? exportable.variable
          try EnvFile.write(
            variable: variable, value: token, expiresAt: exportable.expiresAt, to: envFile)
          console.out("Wrote \(variable) and \(variable)_EXPIRES_AT to \(envFile) (mode 0600).")
        } else {
          let report = Clipboard.copy(
            token, clearAfter: TimeInterval(clearAfter),
            terminalPath: Clipboard.controllingTerminalPath(),
            writeToTerminal: Clipboard.writeToControllingTerminal)
          guard report.terminal || report.localTool != nil else {
            let reason =
              report.localToolFailure.map { "\($0), and there is no terminal to send OSC 52 to" }
              ?? "there is no terminal to send OSC 52 to and no wl-copy or xclip with a display"
            throw AccountsError.envFile(
              path: "the clipboard", reason: reason + "; use --env-file instead")
          }
          let copy = CopyReport(
            what: "the token of \(exportable.account)",
            tools: report.localTool.map { [$0] } ?? [],
            clearsAfter: clearAfter > 0 ? TimeInterval(clearAfter) : nil,
            terminal: CopyReport.route(
              sent: report.terminal, tmuxSetClipboard: report.tmuxSetClipboard),
            toolFailure: report.localToolFailure)
          guard copy.reachedAClipboard else {
            // Inside a tmux that drops OSC 52, with no desktop tool: nothing was copied.
            throw AccountsError.envFile(
              path: "the clipboard", reason: copy.sentence + "; or use --env-file instead")
          }
          console.out(copy.sentence.prefix(1).uppercased() + copy.sentence.dropFirst() + ".")
        }
      } catch {
        throw AccountAccess.failure(error)
      }
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }

  /// `account`'s token with its expiry and scheme (`AgentExport`), valid for `minimumValidity`
  /// seconds at least: from the agent for this vault when one runs, else from the vault
  /// unlocked here. What `export`, `exec` and `token --header` start from. A token handed out
  /// with less validity left (`AgentExport.note`) is said on standard error, as `token` says it.
  static func exportable(
    _ account: String, _ global: GlobalOptions, startedAt: Date, minimumValidity: Int = 60,
    console: Console
  ) async throws(CommandFailure) -> AgentExport {
    let operation = AgentRequest.Operation.export(
      account: account, startedAt: startedAt, minimumValidity: minimumValidity)
    let exportable: AgentExport
    if let answer = await AgentAnswer.ask(
      operation, global, timeout: AgentAnswer.accountsTimeout, \.export)
    {
      exportable = try answer.get()
    } else {
      let book = try await AccountAccess.book(
        global, console: console, providers: .account(account))
      do {
        exportable = try await book.export(
          named: account, startedAt: startedAt, minimumValidity: TimeInterval(minimumValidity))
      } catch {
        throw AccountAccess.failure(error)
      }
    }
    if let note = exportable.note { console.err("authtui: \(note)") }
    return exportable
  }
}
