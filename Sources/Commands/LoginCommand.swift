import Accounts
import AuthCore
import Foundation
import Providers
import Spelling
import System
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui login PROVIDER [--flow pkce|device|pin] [--label NAME] [--no-browser]
/// [--timeout SECONDS] [--json]`: signs in and stores the account.
struct LoginCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "login", summary: "Sign in to PROVIDER and keep the account in the vault.",
    details: """
      The browser flow (pkce) opens the provider's page with $BROWSER, or xdg-open when there
      is a display; otherwise, and with --no-browser, it prints the address, the `ssh -L`
      line that lets this machine receive the redirect, and accepts the final address pasted
      on standard input. Without a browser authtui prefers the provider's device or PIN flow.
      Every wait has a countdown (the provider's login_timeout, --timeout, or the code's
      lifetime); a provider that never answers (Simkl's way of saying no) ends as "no answer"
      with exit 6. The account is stored only after the tokens and the provider's account
      details arrived; its label is the provider's name for you unless --label says otherwise
      (1 to 64 characters, no /, no leading #, no control character, no space at either end);
      when the provider names you only by an opaque id, login says how to rename the account.
      The browser is given a one-time address on 127.0.0.1 that leads to the provider's page
      once (the page's URL would show its state in `ps`); if it is opened twice, the sign-in
      starts again with fresh values and says so.
      --json writes one event per line: authorize, user_code, restarted, retrying (a device
      or PIN sign-in that cannot reach the provider), signed_in, error.
      With no vault yet, at a terminal and with no passphrase variable set, login creates it
      first as `authtui vault init` does; otherwise it says to run that. At a terminal, a
      preset without a client id says where to register an application and asks for the
      client id, which it writes as `authtui providers add ID --client-id` does.
      """,
    arguments: [.required("PROVIDER", \.provider, .provider)],
    options: [
      .value(
        "flow", \.flow, .flow(among: SignInFlow.allCases),
        help: "how to sign in (default: the provider's first flow)",
        completion: .providerFlows(SignInFlow.allCases.map(\.rawValue))),
      .value(
        "label", \.label, .text, "NAME",
        help: "the account's name, no / or leading # (default: the provider's name for you)"),
      .flag("no-browser", \.noBrowser, help: "print the address instead of opening a browser"),
      .value(
        "timeout", \.timeout, .seconds(example: 300), "SECONDS",
        help:
          "how long the browser flow waits, at least \(minimumTimeout) (default: the provider's)"
      ),
      .flag("json", \.json, help: "write events as JSON lines on standard output"),
    ])

  /// The shortest `--timeout`: less leaves no time to sign in at the provider's page.
  static let minimumTimeout = 10

  var global = GlobalOptions()
  /// The provider's id as typed; checked against the catalog (`AccountBook.providerID(named:)`).
  var provider = ""
  /// `--flow`; nil for the provider's choice.
  var flow: SignInFlow?
  /// `--label`.
  var label: String?
  /// `--no-browser`.
  var noBrowser = false
  /// `--timeout`, at least `minimumTimeout` seconds; nil for the provider's.
  var timeout: Int?
  /// `--json`: events as JSON lines, a usage error included.
  var json = false

  mutating func validate() throws(CommandFailure) {
    if let timeout, timeout < Self.minimumTimeout {
      throw CommandFailure(
        exitCode: .usage,
        message: "--timeout must be at least \(Self.minimumTimeout) seconds, not \(timeout) "
          + "(for example --timeout 300, or leave it out for the provider's)")
    }
  }

  /// Under `--json` a usage error is an `error` event too.
  func refuse(_ failure: CommandFailure, console: Console) async -> ExitCode {
    await LoginOutput(console: console, json: json).failed(failure)
    return failure.exitCode
  }

  func run(console: Console) async -> ExitCode {
    let output = LoginOutput(console: console, json: json)
    do throws(CommandFailure) {
      let browser = noBrowser ? nil : BrowserLauncher.available()
      // The provider first: a typo in its id, a missing client id or a flow it does not
      // offer is said before the vault is opened (a new user's first `login` should not
      // create a vault only to learn that the provider needs a client id).
      var catalog = AccountAccess.catalog(
        global, console: console, reportProblems: true,
        providers: .only(Set([try? ProviderID(provider)].compactMap { $0 })))
      if let id = try? ProviderID(provider),
        let asked = try askForClientID(id, in: catalog, console)
      {
        catalog = asked
      }
      let providerID: ProviderID
      let chosen: SignInFlow
      let fellBack: Bool
      do throws(AccountsError) {
        providerID = try AccountBook.providerID(named: provider, in: catalog)
        // The catalog's flows: discovery does not change them, and asking the provider now
        // would cost a request before a usage error.
        let offered = try AccountBook.providerEntry(providerID, in: catalog).flows
        chosen = try AccountBook.signInFlow(
          providerID, flow ?? Self.preferredFlow(offered: offered, hasBrowser: browser != nil),
          in: catalog)
        fellBack = flow == nil && chosen != offered.first
      } catch {
        throw AccountAccess.failure(error)
      }
      // A vault that cannot be written cannot keep the tokens: said before the passphrase,
      // and before any code is shown or request sent.
      try VaultAccess.requireWritable(VaultAccess.location(global))
      let vault = try await VaultAccess.unlockedOrCreated(global, console: console)
      try await VaultAccess.requireWritable(vault)
      let book = await AccountAccess.book(
        over: vault, global, console: console, providers: .loaded(catalog))
      if fellBack {
        output.note(
          "No browser here: using the \(chosen.rawValue) flow (--flow pkce to paste a redirect instead)."
        )
      }
      let signedIn = try await Self.signIn(
        book: book, providerID: providerID, flow: chosen, label: label,
        timeout: timeout.map(TimeInterval.init), browser: browser, output: output)
      await output.signedIn(signedIn)
      if signedIn.labelIsSubject {
        console.err(Self.renameHint(signedIn.name))
      }
      for damaged in (try? await book.damagedAccounts(perhapsNamedLike: signedIn.name)) ?? [] {
        console.err(
          "authtui: account \(damaged.id) is damaged and its name cannot be read, so authtui "
            + "cannot tell whether it was \(signedIn.name) too; if it was, remove it with "
            + "`authtui logout '\(damaged.id)' --local-only`")
      }
      return .ok
    } catch {
      await output.failed(error)
      return error.exitCode
    }
  }

  /// When `id` is a built-in preset that lacks only its client id and a person is at the
  /// terminal (and not `--json`): says where to register an application and what, asks for the
  /// client id it was given, and writes it as `providers add ID --client-id` does; returns the
  /// catalog read again. Nil when nothing was asked, or nothing typed: the provider is then
  /// refused as not ready, with the command to run.
  func askForClientID(_ id: ProviderID, in catalog: ProviderCatalog, _ console: Console)
    throws(CommandFailure) -> ProviderCatalog?
  {
    guard !json, ProviderCatalog.presets[id.rawValue]?.id == id, let entry = catalog.entry(id),
      let setup = entry.setup, setup.clientID == nil, !setup.asksClientSecret,
      TerminalPassphrase.isAvailable
    else { return nil }
    console.err(
      (["\(entry.name) needs a client id of your own, once."]
        + ProvidersShowCommand.registrationLines(entry.registration)).joined(separator: "\n"))
    let typed: String?
    do {
      typed = try TerminalQuestion.ask("Its client id (Enter alone to stop): ")
    } catch {
      // Ctrl-C or Ctrl-D: the only ways out of the question.
      throw CommandFailure(
        exitCode: .cancelled, message: "cancelled at the client id question; nothing was written")
    }
    guard let typed, !typed.isEmpty else { return nil }
    let file: URL
    do {
      file = try ProviderFile.saveSetup(
        id, clientID: typed, redirectPort: nil, in: AccountAccess.configuration(global))
    } catch .file(let path, let reason) {
      throw CommandFailure(exitCode: .failure, message: "\(path): \(reason)")
    } catch {
      throw CommandFailure(exitCode: .usage, message: error.description)
    }
    console.err(
      "Wrote \(ConfigurationLocation.display(file)) (`authtui providers show \(id)` shows it).")
    return AccountAccess.catalog(
      global, console: console, reportProblems: false, providers: .only([id]))
  }

  /// Runs the sign-in with its countdown, browser, paste path and Ctrl-C.
  static func signIn(
    book: AccountBook, providerID: ProviderID, flow: SignInFlow, label: String?,
    timeout: TimeInterval?, browser: BrowserLauncher?, output: LoginOutput
  ) async throws(CommandFailure) -> SignedInAccount {
    let session: SignInSession
    do throws(AccountsError) {
      session = try await book.beginSignIn(
        provider: providerID, flow: flow, label: label, loginTimeout: timeout)
    } catch {
      throw AccountAccess.failure(error)
    }

    // Ctrl-C cancels the attempt (exit 6) instead of killing the process mid-exchange.
    let interrupt = CtrlC.catching { session.cancel() }
    defer { interrupt.release() }

    let reporter = Task {
      var announced = false
      for await progress in session.progress {
        if !announced, progress.authorizationURL != nil || progress.userCode != nil {
          announced = true
          await output.announce(progress, browser: browser, session: session)
        }
        await output.update(progress)
      }
    }
    let countdown = Task { await output.runCountdown() }
    defer {
      reporter.cancel()
      countdown.cancel()
    }
    do {
      return try await session.finish()
    } catch {
      throw AccountAccess.failure(error)
    }
  }

  /// What `login` says after a sign-in whose label is only the provider's opaque identifier
  /// for the account (its `sub`).
  static func renameHint(_ account: AccountName) -> String {
    "authtui: the provider names this account only by an opaque id, so its label is "
      + "\(account.label); give it one you will recognise: `authtui rename \(account) LABEL`"
  }

  /// The provider's first flow, unless no browser can be opened here and the provider offers a
  /// code flow, which then works from any other device.
  static func preferredFlow(offered: [SignInFlow], hasBrowser: Bool) -> SignInFlow {
    let first = offered.first ?? .pkce
    guard !hasBrowser, first == .pkce else { return first }
    return offered.first { $0 == .device || $0 == .pin } ?? first
  }
}
