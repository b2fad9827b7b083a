import Accounts
import App
import Foundation
import Providers
import Terminal
import TestSupport
import Testing

@testable import AuthCore

/// Accounts, providers and a clock for the UI tests: two providers with CJK and emoji labels,
/// every status, and a provider that cannot be used.
enum Fixtures {
  /// A fixed "now" (2025-06-15 15:06:40 UTC).
  static let now = Date(timeIntervalSince1970: 1_750_000_000)

  static let configuration = AppConfiguration(
    vaultPath: "~/.local/share/authtui/vault.db", configDirectory: "~/.config/authtui",
    timeZone: TimeZone(identifier: "UTC") ?? .current, browserAvailable: true)

  static let simkl = ProviderSummary(
    id: "simkl", name: "Simkl", methods: [.pin, .pkce], canRevoke: false,
    fixedRedirectPort: 8765, accessSettingsURL: "https://simkl.com/settings/connected-apps/")
  static let work = ProviderSummary(
    id: "work", name: "Work SSO", methods: [.pkce, .device], canRevoke: true)
  static let hivesigner = ProviderSummary(
    id: "hivesigner", name: "Hivesigner", methods: [.pkce], canRevoke: false)
  static let muhajir = ProviderSummary(
    id: "muhajir", name: "Muhajir", methods: [.pkce], isUsable: false,
    problems: [
      "~/.config/authtui/providers/muhajir.json:3: client_id: missing; register an application "
        + "with Muhajir and put its id in \"client_id\""
    ])
  static let providers = [hivesigner, muhajir, simkl, work]

  /// Simkl before its client id is set, as the catalog describes the preset: choosing it opens
  /// the setup form, which asks for the client id and the redirect port Simkl fixes.
  static let simklToSetUp = ProviderSummary(
    id: "simkl", name: "Simkl", methods: [.pkce, .pin], isUsable: false,
    problems: [
      "built-in preset simkl: client_id: no client_id: register an application at "
        + "https://simkl.com/settings/developer/ (create an app there with the redirect URI "
        + "http://127.0.0.1:8765/callback), then add \"client_id\": \"…\" to "
        + "~/.config/authtui/providers/simkl.json"
    ],
    setup: ProviderSetup(
      registrationURL: "https://simkl.com/settings/developer/",
      registrationNote: "create an app there with the redirect URI http://127.0.0.1:8765/callback",
      redirectPort: 8765, file: "~/.config/authtui/providers/simkl.json",
      guide: RegistrationGuide(
        applicationType: "app without a client secret (PKCE)",
        redirectURI: "http://127.0.0.1:8765/callback",
        registrationURL: "https://simkl.com/settings/developer/",
        note: "create an app there with the redirect URI http://127.0.0.1:8765/callback")))
  /// Hivesigner before its client id is set: one flow, any redirect port.
  static let hivesignerToSetUp = ProviderSummary(
    id: "hivesigner", name: "Hivesigner", methods: [.pkce], isUsable: false,
    problems: ["built-in preset hivesigner: client_id: no client_id: register an application"],
    setup: ProviderSetup(
      registrationURL: "https://hivesigner.com",
      registrationNote: "create a Hive app account with no client secret and the redirect URI "
        + "http://127.0.0.1/callback; its account name is the client_id",
      file: "~/.config/authtui/providers/hivesigner.json",
      guide: RegistrationGuide(
        applicationType: "Hive app account, no client secret",
        redirectURI: "http://127.0.0.1/callback", anyPort: true, scopes: ["login"],
        registrationURL: "https://hivesigner.com")))
  /// Google before its client id and secret are set: an installed application whose secret
  /// the provider wants.
  static let googleToSetUp = ProviderSummary(
    id: "google", name: "Google", methods: [.pkce], isUsable: false,
    problems: ["built-in preset google: client_id: no client_id: register an application"],
    setup: ProviderSetup(
      registrationURL: "https://console.cloud.google.com/apis/credentials",
      registrationNote: "create an OAuth client ID of type Desktop app",
      file: "~/.config/authtui/providers/google.json",
      guide: RegistrationGuide(
        applicationType: "OAuth client ID of type \"Desktop app\"",
        redirectURI: "http://127.0.0.1/callback", anyPort: true,
        scopes: ["openid", "email", "profile"],
        registrationURL: "https://console.cloud.google.com/apis/credentials"),
      asksClientSecret: true))
  /// A first run: no preset has a client id yet.
  static let unconfiguredProviders = [hivesignerToSetUp, muhajir, simklToSetUp, work]

  static func name(_ provider: ProviderID, _ label: String) -> AccountName {
    AccountName(provider: provider, label: label)
  }

  static let alice = AccountSummary(
    name: name("simkl", "alice"), providerName: "Simkl",
    expiresAt: now.addingTimeInterval(5 * 365 * 86400), obtainedAt: now.addingTimeInterval(-7200),
    scopes: ["public"], refreshable: false, identity: "alice")
  static let japanese = AccountSummary(
    name: name("simkl", "日本語のアカウント"), providerName: "Simkl",
    expiresAt: now.addingTimeInterval(200 * 86400), obtainedAt: now.addingTimeInterval(-86400),
    scopes: ["public"], refreshable: false)
  static let bob = AccountSummary(
    name: name("work", "bob"), providerName: "Work SSO", expiresAt: now.addingTimeInterval(245),
    obtainedAt: now.addingTimeInterval(-3355), scopes: ["openid", "profile", "offline_access"],
    refreshable: true, identity: "bob@example.com",
    tenant: "4b1e6a52-3c8d-4f0e-9a7b-2d5c8e1f0a63")
  static let ops = AccountSummary(
    name: name("work", "🔑 ops-team"), providerName: "Work SSO",
    expiresAt: now.addingTimeInterval(-190), obtainedAt: now.addingTimeInterval(-3790),
    scopes: ["openid", "offline_access"], refreshable: true)
  static let carol = AccountSummary(
    name: name("work", "carol"), providerName: "Work SSO", hasAccessToken: false,
    needsSignIn: true, scopes: ["openid"], tokenType: nil, refreshable: false)
  static let dave = AccountSummary(
    name: name("hivesigner", "dave"), providerName: "Hivesigner",
    expiresAt: now.addingTimeInterval(6 * 86400 + 82800), obtainedAt: now.addingTimeInterval(-3600),
    scopes: ["login"], tokenType: "Bearer", refreshable: false)
  static let accounts = [alice, japanese, bob, ops, carol, dave]

  /// A DPoP-bound account (RFC 9449), its key's thumbprint the example of RFC 7638 §3.1.
  static let dana = AccountSummary(
    name: name("work", "dana"), providerName: "Work SSO", expiresAt: now.addingTimeInterval(2400),
    obtainedAt: now.addingTimeInterval(-1200), scopes: ["openid", "offline_access"],
    tokenType: "DPoP", refreshable: true, identity: "dana@example.com", isDPoPBound: true,
    dpopThumbprint: "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")

  /// A sign-in URL as long as real ones are: `state` and `nonce` of 32 random bytes each, as
  /// authtui makes them (362 characters: five rows at 80 columns).
  static let authorizationURL =
    "http://127.0.0.1:41234/oidc/authorize?response_type=code&client_id=sandbox-client"
    + "&redirect_uri=http%3A%2F%2F127.0.0.1%3A39211%2Fcallback&scope=openid%20profile%20"
    + "offline_access&state=Jd8fK2mQ0pLx7Rz9eigiVhZhMWQ_jbYOJ1trA8hX8g9&code_challenge="
    + "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbbnTNCeAoxY&code_challenge_method=S256&nonce="
    + "n-0S6_WzA2MjKCKnctCXw8a_ZVPidomSJg7atj0nF_W"
}

/// Drives the reducer like the loop does, recording every effect, with a clock the test moves.
struct Driver {
  var state: AppState
  var now = Fixtures.now
  /// Every effect asked for, oldest first.
  var effects: [Effect] = []

  /// A UI that has started, unlocked and loaded `accounts` and `providers`.
  init(
    accounts: [AccountSummary] = Fixtures.accounts,
    providers: [ProviderSummary] = Fixtures.providers, size: Size = Size(rows: 24, columns: 80),
    keys: KeyBindings = .defaults, configuration: AppConfiguration = Fixtures.configuration,
    unlocked: Bool = true
  ) {
    state = AppState(configuration: configuration, keys: keys)
    send(.resized(size))
    guard unlocked else { return }
    let loads = send(.finished(.start, .vault(.unlocked)))
    for effect in loads {
      switch effect {
      case .loadAccounts:
        send(.finished(effect, .accounts(.success(AccountList(accounts: accounts)))))
      case .loadProviders: send(.finished(effect, .providers(providers)))
      default: break
      }
    }
    effects.removeAll()
  }

  /// Hands the reducer `outcome` as the result of the last effect asked for under `id`.
  @discardableResult
  mutating func finish(_ id: RequestID, _ outcome: Answer) -> [Effect] {
    // A cancel is the runner's, never answered: the outcome answers the work it cancelled.
    let answered = effects.last { effect in
      if case .cancel = effect { return false }
      return effect.request == id
    }
    guard let effect = answered else {
      Issue.record("no effect was asked for under \(id)")
      return []
    }
    return send(.finished(effect, outcome))
  }

  /// Applies `action` and returns the effects it asked for.
  @discardableResult
  mutating func send(_ action: Action) -> [Effect] {
    let (next, new) = Reducer.reduce(state, action, now: now)
    state = next
    effects += new
    return new
  }

  /// Presses keys in order; returns every effect they asked for.
  @discardableResult
  mutating func press(_ keys: KeyEvent...) -> [Effect] {
    keys.flatMap { send(.key($0)) }
  }

  /// Types text, one key per character.
  @discardableResult
  mutating func type(_ text: String) -> [Effect] {
    text.flatMap { send(.key(.character($0))) }
  }

  /// True when `advance` answers the background work a tick asks for at once, as a working
  /// environment would: the vault unchanged, a due refresh giving a fresh hour. Tests of that
  /// work set it false and answer themselves.
  var answersUpkeep = true

  /// Moves the clock and lets the UI notice; returns the effects it asked for, less the
  /// background work it answered (`answersUpkeep`).
  @discardableResult
  mutating func advance(_ seconds: TimeInterval) -> [Effect] {
    now = now.addingTimeInterval(seconds)
    let effects = send(.tick)
    guard answersUpkeep else { return effects }
    return effects.filter { effect in
      switch effect {
      case .watchVault, .watchProviders:
        send(.finished(effect, .done(nil)))
      case .watchQuestions:
        // No agent holds a request.
        send(.finished(effect, .questions([])))
      case .refreshAhead(_, let name):
        guard var account = state.account(name) else { return true }
        account.obtainedAt = now
        account.expiresAt = now.addingTimeInterval(3600)
        send(.finished(effect, .account(.success(account))))
      default:
        return true
      }
      return false
    }
  }

  /// The frame at the current size and time.
  var frame: ScreenBuffer { AppView.render(state, size: state.size, now: now) }

  /// The frame's text.
  var text: String { frame.textLines().joined(separator: "\n") }

  /// Selects the account called `label` with the arrow keys.
  mutating func select(_ label: String) {
    press(.home)
    for _ in 0..<state.visibleAccounts.count where state.selection?.label != label {
      press(.down)
    }
  }

  /// Opens the sign-in, chooses `provider` and `method`; returns the attempt's id.
  @discardableResult
  mutating func startSignIn(_ provider: ProviderID, _ method: SignInFlow) -> RequestID? {
    press(.character("a"))
    guard let index = state.providers.firstIndex(where: { $0.id == provider }) else { return nil }
    press(.home)
    for _ in 0..<index { press(.down) }
    var started = press(.enter)
    if started.isEmpty, let position = state.providers[index].methods.firstIndex(of: method) {
      for _ in 0..<position { press(.down) }
      started = press(.enter)
    }
    for effect in passWriteCheck(started) {
      if case .startSignIn(let id, _, _, _) = effect { return id }
    }
    return nil
  }

  /// `effects` with the vault's write check (`.checkVaultWritable`) answered "it can be
  /// written", and the effects that answer asked for in its place (the sign-in's start).
  @discardableResult
  mutating func passWriteCheck(_ effects: [Effect]) -> [Effect] {
    effects.flatMap { effect -> [Effect] in
      guard case .checkVaultWritable = effect else { return [effect] }
      return send(.finished(effect, .done(nil)))
    }
  }

  /// Selects bob's account and presses `c`: the copy's request; nil, with an issue recorded,
  /// when it did not copy.
  mutating func copyBobsToken(sourceLocation: SourceLocation = #_sourceLocation) -> RequestID? {
    select("bob")
    let effects = press(.character("c"))
    guard case .copyToken(let id, Fixtures.bob.name)? = effects.first else {
      Issue.record("c did not copy: \(effects)", sourceLocation: sourceLocation)
      return nil
    }
    return id
  }

  /// `startSignIn`, recording an issue and throwing when the sign-in did not start.
  mutating func startedSignIn(
    _ provider: ProviderID, _ method: SignInFlow, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> RequestID {
    let started = startSignIn(provider, method)
    return try #require(started, sourceLocation: sourceLocation)
  }

  /// A device sign-in to `work` started, its code (`codeSnapshot()`) shown, and `seconds`
  /// gone by: the attempt's id, nil when it did not start.
  @discardableResult
  mutating func showDeviceCode(for seconds: TimeInterval) -> RequestID? {
    guard let id = startSignIn("work", .device) else { return nil }
    send(.signInProgress(id, codeSnapshot()))
    advance(seconds)
    return id
  }

  /// A browser snapshot waiting until `seconds` from now.
  func browserSnapshot(seconds: TimeInterval = 300) -> SignInProgress {
    var progress = SignInProgress(flow: .pkce, phase: .waitingForBrowser)
    progress.deadline = now.addingTimeInterval(seconds)
    progress.authorizationURL = URL(string: Fixtures.authorizationURL)
    return progress
  }

  /// A device or PIN snapshot waiting for approval.
  func codeSnapshot(
    code: String = "WDJB-MJHT", seconds: TimeInterval = 600, interval: TimeInterval = 5,
    complete: Bool = true
  ) -> SignInProgress {
    var progress = SignInProgress(flow: .device, phase: .waitingForApproval)
    progress.deadline = now.addingTimeInterval(seconds)
    progress.userCode = code
    progress.verificationURI = URL(string: "http://127.0.0.1:41234/oidc/device")
    progress.verificationURIComplete =
      complete ? URL(string: "http://127.0.0.1:41234/oidc/device?user_code=\(code)") : nil
    progress.pollInterval = interval
    progress.nextPollAt = now.addingTimeInterval(interval)
    return progress
  }
}

extension Effect {
  /// True for the effects that could put anything in the vault.
  var couldStore: Bool {
    switch self {
    case .startSignIn, .createVault, .refresh, .copyToken, .exportEnvFile, .submitRedirect:
      return true
    default:
      return false
    }
  }
}
