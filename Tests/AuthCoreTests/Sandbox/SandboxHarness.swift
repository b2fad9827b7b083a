import AuthCore
import Crypto
import Foundation
import Sandbox
import TestSupport

/// An in-process sandbox provider and AuthCore configurations pointing at it, for tests that
/// run the flows over real HTTP, through the real listener, with the user played by
/// `ScriptedBrowser` submitting the sandbox's own HTML forms.
///
/// Every login timeout is 60 s rather than 300 s: a test whose redirect never arrives fails
/// with "no answer" instead of holding the suite for five minutes.
struct SandboxHarness {
  let sandbox: SandboxServer

  /// The sandbox's clock stands still where the harness started: only the offsets a test sets
  /// (moving it along with the manual clock) move its time. With the real clock, seconds of a
  /// busy machine between two polls would count as the client waiting.
  static func start() async throws -> SandboxHarness {
    let origin = Date()
    return SandboxHarness(
      sandbox: try await SandboxServer.start(
        configuration: SandboxConfiguration(
          signingKeys: await SharedSigningKeys.keys(), clock: { origin })))
  }

  /// Registers `redirectURI` as Simkl's (its registration fixes the port). The tests let the
  /// kernel pick the port and register it afterwards: probing for a free port and binding it
  /// later races with every other test binding port 0.
  func registerSimklRedirect(_ redirectURI: String) async {
    var settings = await sandbox.settings(for: .simkl)
    settings.registeredRedirectURIs = [redirectURI]
    await sandbox.setSettings(settings, for: .simkl)
  }

  func url(_ path: String) -> URL? { URL(string: sandbox.url(path)) }

  /// Simkl as its preset describes it: two hosts, PIN, JSON exchange, `client_id`,
  /// `app-name`, `app-version` on every URL (the redirect port is registered per test).
  var simkl: ProviderConfiguration {
    ProviderConfiguration(
      id: "simkl", name: "Simkl", clientID: SandboxProfile.defaultClientID, flows: [.pkce, .pin],
      authorizationEndpoint: url(SandboxPaths.Simkl.authorize),
      tokenEndpoint: url(SandboxPaths.Simkl.token), pinEndpoint: url(SandboxPaths.Simkl.pin),
      tokenRequestEncoding: .json, loginTimeout: 60,
      extraRequestParameters: [
        "client_id": SandboxProfile.defaultClientID, "app-name": "authtui",
        "app-version": AuthTUIVersion.current,
      ], extraRequestParametersLocation: .query)
  }

  /// Hivesigner: JSON exchange, `scope=posting`, no refresh token.
  var hivesigner: ProviderConfiguration {
    ProviderConfiguration(
      id: "hivesigner", name: "Hivesigner", clientID: SandboxProfile.defaultClientID,
      scopes: ["posting"], authorizationEndpoint: url(SandboxPaths.Hivesigner.authorize),
      tokenEndpoint: url(SandboxPaths.Hivesigner.token), tokenRequestEncoding: .json,
      loginTimeout: 60)
  }

  /// Muhajir Studio: form exchange, refresh without rotation.
  var muhajir: ProviderConfiguration {
    ProviderConfiguration(
      id: "muhajir", name: "Muhajir Studio", issuer: sandbox.url(SandboxPaths.Muhajir.issuer),
      clientID: SandboxProfile.defaultClientID,
      scopes: ["openid", "profile", "email", "offline_access"],
      authorizationEndpoint: url(SandboxPaths.Muhajir.authorize),
      tokenEndpoint: url(SandboxPaths.Muhajir.token), loginTimeout: 60)
  }

  /// The standards-complete provider: device grant, rotation, revocation, RFC 9207 `iss`.
  var oidc: ProviderConfiguration {
    ProviderConfiguration(
      id: "oidc", name: "Sandbox OpenID Provider", issuer: sandbox.url(SandboxPaths.OIDC.issuer),
      clientID: SandboxProfile.defaultClientID, flows: [.pkce, .device],
      scopes: ["openid", "profile", "offline_access"],
      authorizationEndpoint: url(SandboxPaths.OIDC.authorize),
      tokenEndpoint: url(SandboxPaths.OIDC.token),
      deviceAuthorizationEndpoint: url(SandboxPaths.OIDC.deviceAuthorization),
      revocationEndpoint: url(SandboxPaths.OIDC.revoke), loginTimeout: 60,
      requiresIssuerInAuthorizationResponse: true)
  }

  func client(
    _ configuration: ProviderConfiguration, clock: any WallClock = SystemClock(),
    transport: any Transport = URLSessionTransport()
  ) -> ProviderClient {
    ProviderClient(configuration: configuration, transport: transport, clock: clock)
  }

  /// A person at a browser who answers every page with `action`, as `alice`.
  static func person(_ action: ScriptedBrowser.Action = .approve, userCode: String? = nil)
    -> ScriptedBrowser
  {
    ScriptedBrowser(
      script: ScriptedBrowser.Script(action: action, username: "alice", userCode: userCode))
  }

  /// Starts a browser sign-in and lets `person` answer it; returns the attempt's outcome and
  /// the last page the browser showed.
  func signIn(
    _ client: ProviderClient, person: ScriptedBrowser = SandboxHarness.person()
  ) async throws -> (result: Result<TokenResponse, AuthError>, page: String) {
    let attempt = try await AuthorizationCodeSignIn.start(client: client)
    await registerSimklRedirect(attempt.redirectURI)
    let visit = await person.visit(await attempt.browserAddress().absoluteString)
    // A code the provider would not exchange leaves the attempt waiting for a better redirect
    // until its deadline; here, that failure is the outcome.
    if case .exchangeFailed(let error)? = await attempt.currentProgress.notice {
      attempt.cancel()
      return (.failure(error), visit.finalBody)
    }
    let result: Result<TokenResponse, AuthError>
    do {
      result = .success(try await attempt.tokens())
    } catch {
      result = .failure(error)
    }
    return (result, visit.finalBody)
  }
}

/// The real transport, with a chance to look at or change each request before it leaves:
/// how a test makes the client send a wrong verifier once, or ages a code just before its
/// exchange, while everything else stays real.
actor InterceptingTransport: Transport {
  private let base = URLSessionTransport()
  private let intercept: @Sendable (TransportRequest) async -> TransportRequest
  /// Every request as the client built it, before `intercept`.
  private(set) var built: [TransportRequest] = []

  init(_ intercept: @escaping @Sendable (TransportRequest) async -> TransportRequest) {
    self.intercept = intercept
  }

  func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
    built.append(request)
    return try await base.send(await intercept(request))
  }

  /// Sends a request again exactly as the client built it.
  func resend(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
    try await base.send(request)
  }
}

extension TransportRequest {
  /// This JSON request with `name` set to `value` in its body.
  func settingJSONMember(_ name: String, to value: String) -> TransportRequest {
    var object = (try? JSONSerialization.jsonObject(with: body)) as? [String: String] ?? [:]
    object[name] = value
    var copy = self
    copy.body =
      (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? body
    return copy
  }
}
