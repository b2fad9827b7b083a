import AuthCore
import Foundation
import Sandbox
import TestSupport

/// An in-process sandbox provider and AuthCore configurations pointing at it, for tests that
/// run the flows over real HTTP, through the real listener, with the user played by
/// `ScriptedBrowser` submitting the sandbox's own HTML forms.
struct SandboxHarness {
  let sandbox: SandboxServer
  /// The port registered as Simkl's redirect URI (Simkl fixes the port per registration).
  let simklPort: UInt16

  static func start() async throws -> SandboxHarness {
    let simklPort = try await freePort()
    let sandbox = try await SandboxServer.start(
      configuration: SandboxConfiguration(
        simklRedirectURIs: ["http://127.0.0.1:\(simklPort)/callback"]))
    return SandboxHarness(sandbox: sandbox, simklPort: simklPort)
  }

  /// A port nobody listens on right now.
  static func freePort() async throws -> UInt16 {
    let probe = try LoopbackServer { _ in .text("", status: 200) }
    let port = probe.port
    await probe.stop()
    return port
  }

  func url(_ path: String) -> URL? { URL(string: sandbox.url(path)) }

  /// Simkl as its preset describes it: two hosts, PIN, JSON exchange, a fixed redirect port,
  /// `client_id`/`app-name`/`app-version` on every URL.
  var simkl: ProviderConfiguration {
    ProviderConfiguration(
      id: "simkl", name: "Simkl", clientID: SandboxProfile.defaultClientID, flows: [.pkce, .pin],
      authorizationEndpoint: url(SandboxPaths.Simkl.authorize),
      tokenEndpoint: url(SandboxPaths.Simkl.token), pinEndpoint: url(SandboxPaths.Simkl.pin),
      redirectPort: simklPort, tokenRequestEncoding: .json,
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
      tokenEndpoint: url(SandboxPaths.Hivesigner.token), tokenRequestEncoding: .json)
  }

  /// Muhajir Studio: form exchange, refresh without rotation.
  var muhajir: ProviderConfiguration {
    ProviderConfiguration(
      id: "muhajir", name: "Muhajir Studio", issuer: sandbox.url(SandboxPaths.Muhajir.issuer),
      clientID: SandboxProfile.defaultClientID,
      scopes: ["openid", "profile", "email", "offline_access"],
      authorizationEndpoint: url(SandboxPaths.Muhajir.authorize),
      tokenEndpoint: url(SandboxPaths.Muhajir.token))
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
      revocationEndpoint: url(SandboxPaths.OIDC.revoke),
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
    let visit = await person.visit(attempt.request.url.absoluteString)
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
