import Accounts
import Agent
import Foundation
import Spelling

/// `authtui token ACCOUNT [--min-valid SECONDS] [--header]`: a valid access token on standard
/// output, for scripts (`curl -H "Authorization: Bearer $(authtui token simkl/alice)" …`), or
/// the whole header line (`authtui token simkl/alice --header | curl -H @- …`).
struct TokenCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "token",
    summary: "Print a valid access token for ACCOUNT, refreshing it first when needed.",
    details: """
      ACCOUNT is PROVIDER/LABEL (simkl/alice), or PROVIDER alone when it has one account.
      The token is refreshed first when fewer than --min-valid seconds remain (default 60),
      at most once per call: a token obtained during this call is printed even when the
      provider's lifetime is shorter. Many processes may ask at once: one refreshes, the
      others wait for it and print its token. Exit 5 when the account needs a new sign-in
      (no refresh token, or the provider refused it), 7 when the provider cannot be reached
      (the stored tokens are then left as they were). When `authtui agent` runs for this
      vault, it answers instead and no passphrase is needed; AUTHTUI_NO_AGENT=1 skips it.
      Without it, calls at once take turns at the vault's key derivation (128 MiB each), as
      many at a time as the cores and memory allow, and say so when they wait over 2 s.
      SIGINT, SIGTERM and SIGHUP during a refresh request wait until its answer is stored,
      then end the process; SIGKILL then may cost the account a new sign-in.
      --header prints `Authorization: Bearer TOKEN` instead, one line that curl reads
      from standard input: authtui token simkl/alice --header | curl -H @- URL
      """,
    arguments: [.required("ACCOUNT", \.account, .account)],
    options: [
      .minimumValidity(\.minimumValidity),
      .flag("header", \.header, help: "print `Authorization: Bearer TOKEN` (for `curl -H @-`)"),
    ])

  var global = GlobalOptions()
  /// The account's name as given.
  var account = ""
  /// `--min-valid`, in seconds.
  var minimumValidity = 60
  /// `--header`: the whole `Authorization` header line.
  var header = false

  func run(console: Console) async -> ExitCode {
    let startedAt = Date()
    do throws(CommandFailure) {
      if let answer = await askAgent(startedAt: startedAt) {
        console.outExactly(try output(try answer.get()))
        return .ok
      }
      let book = try await AccountAccess.book(
        global, console: console, providers: .account(account))
      let token: String
      do {
        token = try await book.accessToken(
          named: account, minimumValidity: TimeInterval(minimumValidity), startedAt: startedAt)
      } catch {
        throw AccountAccess.failure(error)
      }
      console.outExactly(try output(token))
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }

  /// What is printed for `token`: the token itself, or with `--header` the header line, which
  /// a token with a line break in it would end early (and a second header would follow).
  /// A token is printed exactly or not at all: one holding a control or direction character
  /// (stored by a version that took it from the provider's answer) is refused.
  func output(_ token: String) throws(CommandFailure) -> String {
    guard TerminalText.isClean(token) else { throw Self.unprintable(account) }
    return header ? "Authorization: Bearer \(token)" : token
  }

  /// A stored token holds a character no token may hold (RFC 6749 §A.12: visible ASCII and
  /// spaces); printing it would send a terminal what the provider put in it.
  static func unprintable(_ account: String) -> CommandFailure {
    CommandFailure(
      exitCode: .providerError,
      message: "\(account)'s stored token holds control characters, which no token may hold; "
        + "sign in again (`authtui login`) to replace it")
  }

  /// The token from a running agent for this vault, or its failure; nil when there is no agent
  /// to ask (or `AUTHTUI_NO_AGENT` is set), and the vault must be unlocked here.
  func askAgent(startedAt: Date) async -> Result<String, CommandFailure>? {
    guard AgentClient.enabled() else { return nil }
    let request = AgentRequest(
      operation: .token(account: account, minimumValidity: minimumValidity, startedAt: startedAt),
      vault: VaultAccess.location(global).canonicalPath)
    switch await AgentClient.ask(
      request, at: .resolve(),
      timeout: AgentConnection.connectTimeout + AgentConnection.tokenTimeout)
    {
    case .token(let token)?: return .success(token)
    case .failure(let failure)?: return .failure(failure)
    default: return nil
    }
  }
}

extension Option {
  /// `--min-valid SECONDS`, as `token` and `exec` take it.
  static func minimumValidity(_ path: WritableKeyPath<Root, Int> & Sendable) -> Option {
    .value(
      "min-valid", path, .seconds(), "SECONDS",
      help: "refresh when fewer seconds than this remain", showsDefault: true)
  }
}
