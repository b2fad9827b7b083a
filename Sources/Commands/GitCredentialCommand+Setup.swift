import Accounts
import Agent
import AuthCore
import Foundation
import Isolation
import Providers
import Spelling
import System

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui git-credential setup URL ACCOUNT [--username NAME]`: what `gh auth setup-git`
/// does for GitHub, for any URL and account. It writes the `git` entry of config.json, then
/// makes `authtui git-credential` git's one helper for the URL in git's global configuration
/// (and, for a URL with a path, `useHttpPath`, without which git sends no path).
extension GitCredentialCommand {
  /// How long each `git config` may take: it answers at once or is stuck.
  static let gitDeadline: Duration = .seconds(10)

  func setUp(url: String, account: String, console: Console) async -> ExitCode {
    do throws(CommandFailure) {
      let route = try Self.route(url: url, account: account, username: username)
      // A provider authtui does not know (a typo) is said now, not at git's first ask. Its
      // file is not read: one without a client id yet may be set up later.
      let provider = AccountName.halves(of: account).map { String($0.provider) } ?? account
      let providerID: ProviderID
      do throws(AccountsError) {
        let names = AccountAccess.catalog(
          global, console: console, reportProblems: false, providers: .only([]))
        providerID = try AccountBook.knownProviderID(named: provider, in: names)
      } catch {
        throw AccountAccess.failure(error)
      }
      // A misspelt label would have git ask for a token that never comes, at every push.
      try await Self.checkAccountExists(account, of: providerID, global, console: console)
      let file: URL
      do {
        file = try route.save(in: AccountAccess.configuration(global))
      } catch {
        throw CommandFailure(exitCode: .failure, message: error.description)
      }
      let shown = ConfigurationLocation.display(file)
      let settings = Self.gitSettings(
        url: url, helper: Self.helper(options: global), path: route.prefix)
      if let failure = await Self.configureGit(settings) {
        throw CommandFailure(
          exitCode: .failure,
          message: "wrote the entry for \(url) to \(shown), but git's configuration could not "
            + "be changed (\(failure)); run:\n"
            + settings.map {
              "  git config --global "
                + $0.map { MessageQuoting.shellWord($0, keeping: "/:=,") }.joined(separator: " ")
            }
            .joined(separator: "\n"))
      }
      console.out(
        "git now asks authtui for \(url): the token of \(account)"
          + (username.map { ", user name \($0)" } ?? "") + ".\n"
          + "  \(shown): \"git\": {\"\(url)\": …}\n"
          + "  git config --global: credential.\(url).helper (any helper set there before for "
          + "this URL is no longer asked)"
          + (route.prefix.segments.isEmpty ? "" : ", credential.\(url).useHttpPath true"))
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }

  /// Refuses `account` unless the vault holds it, as `token` refuses an unknown account
  /// (exit 4, with the close names or the sign-in to do). The names come from a running
  /// agent, else from the vault unlocked here, as `default` reads them; a damaged account
  /// counts (`token` then says what is wrong with it).
  static func checkAccountExists(
    _ account: String, of provider: ProviderID, _ global: GlobalOptions, console: Console
  ) async throws(CommandFailure) {
    let listing: AgentListing
    if let answer = await AgentAnswer.ask(
      .list, global, timeout: AgentAnswer.accountsTimeout, \.listing)
    {
      listing = try answer.get()
    } else {
      let book = try await AccountAccess.book(
        global, console: console, providers: .provider(provider.rawValue))
      do {
        listing = AgentListing(try await book.listing())
      } catch {
        throw AccountAccess.failure(error)
      }
    }
    let names = listing.accounts.map(\.name.description) + listing.damaged.compactMap(\.name)
    guard !names.contains(account) else { return }
    let label = AccountName.halves(of: account).map { String($0.label) }
    throw AccountAccess.failure(
      AccountBook.noSuchAccount(account, among: names, knownProvider: provider, label: label))
  }

  /// The route `setup` writes, its URL, account and user name checked as config.json's are
  /// read, and as git's protocol can carry them.
  static func route(url: String, account: String, username: String?)
    throws(CommandFailure) -> GitCredentialRoute
  {
    // git sends a URL's parts on lines of their own, and git's configuration keys hold no
    // line break: such a URL could never be asked for.
    if url.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 }) {
      throw CommandFailure(
        exitCode: .usage,
        message: "the URL \(MessageQuoting.quoted(url)) holds a space or a control character; "
          + "give it as git sees it, percent-encoded (https://git.example.com/team%20a)")
    }
    let prefix: GitURLPrefix
    switch GitURLPrefix.parse(url) {
    case .success(let parsed): prefix = parsed
    case .failure(.userInURL):
      // Its password (or a token given as the user) is not repeated on the terminal.
      let shown = IssuerCredentials(issuer: url)?.shown ?? "…@"
      throw CommandFailure(
        exitCode: .usage,
        message: "the URL names a user in it (`\(shown)`): give the URL without it, and the "
          + "user name with --username")
    case .failure(let problem):
      throw CommandFailure(
        exitCode: .usage, message: "the URL \(MessageQuoting.quoted(url)) \(problem)")
    }
    // PROVIDER/LABEL, as config.json's entries must be: the token git gets must not change
    // when the provider gets another account.
    if let problem = UserSettings.accountProblem(account) {
      throw CommandFailure(exitCode: .usage, message: problem)
    }
    if let username, username.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\u{7F}" })
    {
      throw CommandFailure(
        exitCode: .usage,
        message: "--username cannot hold a line break or another control character, which "
          + "git's credential protocol cannot carry")
    }
    return GitCredentialRoute(url: url, prefix: prefix, account: account, username: username)
  }

  /// The helper git runs: `authtui git-credential` when `authtui` on `PATH` is a program, else
  /// this program by its full path (a build tree, an `authtui` not on `PATH`); with the
  /// `--config` and `--vault` this setup was given, as absolute paths, since git runs it
  /// without them.
  static func helper(
    options: GlobalOptions = GlobalOptions(),
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String {
    let program: String
    if case .found = ForegroundCommand.locate("authtui", environment: environment) {
      program = "authtui"
    } else {
      let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      program = own.map { MessageQuoting.shellWord($0, keeping: "/") } ?? "authtui"
    }
    var words = [program]
    for (option, path) in [("--config", options.config), ("--vault", options.vault)] {
      guard let path, !path.isEmpty else { continue }
      let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
      words += [option, MessageQuoting.shellWord(absolute, keeping: "/")]
    }
    return "!" + (words + ["git-credential"]).joined(separator: " ")
  }

  /// The `git config --global` arguments of the setup: the URL's helpers emptied (an empty
  /// value resets git's list), this one added, and `useHttpPath` for a URL with a path.
  static func gitSettings(url: String, helper: String, path prefix: GitURLPrefix) -> [[String]] {
    var settings = [
      ["--replace-all", "credential.\(url).helper", ""],
      ["--add", "credential.\(url).helper", helper],
    ]
    if !prefix.segments.isEmpty { settings.append(["credential.\(url).useHttpPath", "true"]) }
    return settings
  }

  /// Runs `git config --global` with each of `settings` in turn; nil when every one did,
  /// else why not.
  static func configureGit(_ settings: [[String]]) async -> String? {
    guard case .found(let git) = ForegroundCommand.locate("git") else {
      return "git is not installed, or not on PATH"
    }
    return await onOwnThread(named: "git-config") { () -> String? in
      for arguments in settings {
        let result = try? SpawnedProcess.output(
          of: git, arguments: ["config", "--global"] + arguments, standardInput: .null,
          standardError: .null, deadline: gitDeadline)
        guard let result else { return "git could not be started" }
        guard result.termination == .exited(0) else {
          return "git config --global \(arguments.first ?? "") … ended: "
            + result.termination.description
        }
      }
      return nil
    }
  }
}
