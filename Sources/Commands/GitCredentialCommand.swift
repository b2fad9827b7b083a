import Accounts
import Agent
import Foundation
import Isolation
import Providers
import Spelling
import System

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui git-credential get|store|erase`: git's credential helper protocol
/// (git-credential(1)), answering with the token of the account `config.json`'s `git` object
/// names for the URL; and `authtui git-credential setup URL ACCOUNT [--username NAME]`, which
/// writes that entry and git's helper setting (`GitCredentialCommand+Setup.swift`).
struct GitCredentialCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "git-credential",
    summary: "Answer git's credential requests with the token of the URL's account.",
    details: """
      Set it up once per URL:

        authtui git-credential setup https://git.example.com work/alice

      names the account in config.json's "git" object and makes it git's helper for the URL
      in git's global configuration, replacing any helper set there before for that URL (and
      with a path, sets credential.URL.useHttpPath so that git sends the path). The account
      must be in the vault already (exit 4 otherwise, as for `authtui token`): sign in first.
      It is looked up through a running agent, else in the vault unlocked here. By hand, the
      same is (the ! makes git run it as a shell command, with get, store or erase appended):

        git config --global credential.https://git.example.com.helper '!authtui git-credential'

      and in config.json (the longest matching prefix wins; scheme and host must match
      exactly, paths by whole segments):

        "git": { "https://git.example.com": "work/alice",
                 "https://gitlab.com": { "account": "gitlab/me", "username": "oauth2" } }

      get reads git's key=value lines from standard input (up to a blank line or the end) and
      prints username= and password= with a token valid for 60 more seconds, as `authtui
      token` gets it: from a running agent, else by unlocking the vault with
      AUTHTUI_PASSPHRASE, …_FILE or …_COMMAND. It never asks for a passphrase on the
      terminal. It prints nothing and exits 0 when no entry serves the URL, so git tries its
      next helper or asks. The user name is "username" when given, else the one git already
      has, else the account's label (many forges take any name with a token; GitLab wants
      oauth2, GitHub Apps x-access-token). Paths reach helpers only under
      `git config credential.useHttpPath true`; without it, entries with a path serve nothing.
      A path with . or .. segments (also as %2e) is refused when an entry for its host has a
      path: which entry serves it would depend on how the server resolves it.

      store and erase read their input and do nothing: the vault is the store, and a 401 seen
      by git must not delete an account (`authtui logout` does that).
      """,
    arguments: [
      .required(
        "ACTION", \.action,
        .choice(Action.allCases) { text, _ in
          "unknown git-credential action '\(text)' (git runs it with get, store or erase; "
            + "`authtui git-credential setup URL ACCOUNT` sets it up; see "
            + "`authtui help git-credential`)"
        }),
      .optional("URL", \.setupURL, .text),
      .optional("ACCOUNT", \.setupAccount, .account),
    ],
    options: [
      .value(
        "username", \.username, .nonEmptyText, "NAME",
        help: "with setup: the user name git is given (default: git's, else the label)")
    ])

  /// What git asks of a credential helper, and the setup of one URL.
  enum Action: String, CaseIterable, Sendable {
    case get, store, erase, setup
  }

  var global = GlobalOptions()
  /// What git asks.
  var action = Action.get
  /// `setup`'s URL prefix, as typed.
  var setupURL: String?
  /// `setup`'s account, as typed.
  var setupAccount: String?
  /// `setup --username`.
  var username: String?

  mutating func validate() throws(CommandFailure) {
    if action == .setup {
      guard setupURL != nil, setupAccount != nil else {
        throw CommandFailure(
          exitCode: .usage,
          message: "'git-credential setup' needs URL and ACCOUNT (for example `authtui "
            + "git-credential setup https://git.example.com work/alice`)")
      }
    } else if setupURL != nil || username != nil {
      throw CommandFailure(
        exitCode: .usage,
        message: "git-credential \(action.rawValue) takes no arguments: git writes the request "
          + "on its standard input")
    }
  }

  func run(console: Console) async -> ExitCode {
    if action == .setup, let setupURL, let setupAccount {
      return await setUp(url: setupURL, account: setupAccount, console: console)
    }
    do throws(CommandFailure) {
      let request = try await Self.readRequest()
      guard action == .get else { return .ok }
      guard let answer = try await Self.answer(request, options: global, console: console)
      else { return .ok }
      console.outExactly(answer)
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }

  /// The `username=` and `password=` lines for `request`, or nil when no entry of config.json
  /// serves its URL.
  static func answer(_ request: GitCredentialRequest, options: GlobalOptions, console: Console)
    async throws(CommandFailure) -> String?
  {
    let (settings, problems) = UserSettings.load(from: AccountAccess.configuration(options))
    for problem in problems where problem.field.map({ $0.hasPrefix("git") }) ?? true {
      console.err("authtui: \(problem)")
    }
    if let path = GitCredentialRoute.unresolvedPath(of: request, in: settings.gitRoutes) {
      throw CommandFailure(
        exitCode: .failure,
        message: "git asked for \(request.host ?? "the host")/\(path), a path with . or .. "
          + "segments, which servers resolve differently, so no git entry serves it: use the "
          + "repository's URL without them")
    }
    guard let route = GitCredentialRoute.route(for: request, in: settings.gitRoutes) else {
      if request.path == nil, let host = request.host,
        case let asked = GitURLPrefix(scheme: request.scheme ?? "", host: host, path: ""),
        settings.gitRoutes.contains(where: {
          $0.prefix.scheme == asked.scheme && $0.prefix.host == asked.host
            && !$0.prefix.segments.isEmpty
        })
      {
        console.err(
          "authtui: git sent no path for \(host), so the git entries with a path cannot "
            + "serve it: `git config --global credential.useHttpPath true` sends it")
      }
      return nil
    }
    let username = route.username(for: request)
    let token = try await token(for: route, options: options, console: console)
    guard TerminalText.isClean(token) else { throw TokenCommand.unprintable(route.account) }
    guard !username.contains(where: { $0.isNewline || $0 == "\0" }) else {
      throw CommandFailure(
        exitCode: .providerError,
        message: "the user name for \(route.account) holds a line break, which git's "
          + "credential protocol cannot carry")
    }
    return "username=\(username)\npassword=\(token)"
  }

  /// A token of `route`'s account valid for 60 more seconds: from the agent, else from the
  /// vault unlocked without the terminal. A DPoP-bound token is refused: git sends no proofs.
  private static func token(
    for route: GitCredentialRoute, options global: GlobalOptions, console: Console
  ) async throws(CommandFailure) -> String {
    let startedAt = Date()
    if let answer = await AgentAnswer.ask(
      .export(account: route.account, startedAt: startedAt), global,
      timeout: AgentAnswer.accountsTimeout, \.export)
    {
      return try Self.usable(try answer.get(), console: console)
    }
    if case .terminal = PassphraseSource.current().origin {
      throw CommandFailure(
        exitCode: .vaultLocked,
        message: "no agent runs for the vault and git's helper does not ask for the passphrase "
          + "(git would read it from the terminal as a password): start one with `authtui "
          + "agent start`, or set AUTHTUI_PASSPHRASE_COMMAND")
    }
    let book = try await AccountAccess.book(
      global, console: console, providers: .account(route.account))
    let exportable: AgentExport
    do {
      exportable = try await book.export(
        named: route.account, startedAt: startedAt, minimumValidity: 60)
    } catch {
      throw AccountAccess.failure(error)
    }
    return try Self.usable(exportable, console: console)
  }

  /// The token of `exportable`, unless it is DPoP-bound: git would send it as a password
  /// without the proof it needs. Its note, if any (less validity left than asked for, and
  /// why), goes to standard error, which git shows.
  private static func usable(_ exportable: AgentExport, console: Console) throws(CommandFailure)
    -> String
  {
    try TokenCommand.refuseBoundToken(exportable, refusing: "git-credential")
    if let note = exportable.note { console.err("authtui: \(note)") }
    return exportable.token
  }

  /// git's request from standard input, read up to its blank line or the end of the input, on
  /// a thread of its own (a person typing may take a while).
  private static func readRequest() async throws(CommandFailure) -> GitCredentialRequest {
    let bytes = await onOwnThread(named: "git-credential-input") { readStandardInput() }
    do {
      return try GitCredentialRequest.parse(bytes)
    } catch {
      throw CommandFailure(exitCode: .usage, message: "git-credential: \(error)")
    }
  }

  /// Standard input up to a blank line, the end, or one byte past the size limit.
  private static func readStandardInput() -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while bytes.count <= GitCredentialRequest.sizeLimit, !GitCredentialRequest.isComplete(bytes) {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      if count <= 0 { break }
      bytes += chunk[..<count]
    }
    return bytes
  }
}
