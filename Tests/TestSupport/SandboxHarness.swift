import AuthCore
import Crypto
import Foundation
import Loopback
import Sandbox

/// A sandbox on a free port, a loopback callback listener standing in for the app, requests
/// made the way clients and browsers make them over real HTTP, and AuthCore configurations
/// pointing at each sandbox profile, for tests that run the flows through the real listener
/// with the user played by `ScriptedBrowser` submitting the sandbox's own HTML forms.
///
/// The sandbox's clock stands still at `clockOrigin`: only the offsets a test sets (moving it
/// along with a manual clock) move its time. On a busy machine seconds may pass between two
/// requests of a test, and a real clock would then turn "a poll too soon" into one on time.
///
/// Every login timeout is 60 s rather than 300 s: a test whose redirect never arrives fails
/// with "no answer" instead of holding the suite for five minutes.
public final class SandboxHarness: Sendable {
  public let server: SandboxServer
  public let callback: CallbackCatcher
  /// The sandbox's now before any offset.
  public let clockOrigin: Date

  /// Starts the sandbox (with the shared signing keys unless `configuration` brings its own)
  /// and the callback listener.
  public init(configuration: SandboxConfiguration = SandboxConfiguration()) async throws {
    var configuration = configuration
    if configuration.signingKeys.isEmpty {
      configuration.signingKeys = await SharedSigningKeys.keys()
    }
    let origin = Date()
    clockOrigin = origin
    configuration.clock = { origin }
    server = try await SandboxServer.start(configuration: configuration)
    callback = try CallbackCatcher()
  }

  public var port: UInt16 { server.port }

  /// Stops both servers.
  public func stop() async {
    await callback.stop()
    await server.stop()
  }

  // MARK: Requests

  public func get(_ target: String, headers: [String] = []) async -> RawHTTPResponse {
    await RawHTTPClient.request("GET", target, port: port, headers: headers)
  }

  public func postForm(
    _ target: String, _ fields: [(String, String)], headers: [String] = []
  ) async -> RawHTTPResponse {
    await RawHTTPClient.request(
      "POST", target, port: port,
      headers: ["Content-Type: application/x-www-form-urlencoded"] + headers,
      body: FormEncoding.encode(fields.map { (name: $0.0, value: $0.1) }))
  }

  public func postJSON(_ target: String, _ json: String, headers: [String] = []) async
    -> RawHTTPResponse
  {
    await RawHTTPClient.request(
      "POST", target, port: port, headers: ["Content-Type: application/json"] + headers,
      body: json)
  }

  /// `target?name=value&…`, escaped.
  public static func target(_ path: String, _ query: [(String, String)]) -> String {
    query.isEmpty ? path : path + "?" + FormEncoding.encode(query.map { (name: $0.0, value: $0.1) })
  }

  /// The sandbox URL of `path` with `query`.
  public func url(_ path: String, _ query: [(String, String)] = []) -> String {
    server.baseURL + Self.target(path, query)
  }

  // MARK: The user

  /// Opens `url` in the scripted browser and plays `action` as `user`.
  public func browse(
    _ url: String, action: ScriptedBrowser.Action = .approve, user: String? = nil,
    userCode: String? = nil
  ) async -> ScriptedBrowser.Outcome {
    await ScriptedBrowser(
      script: ScriptedBrowser.Script(
        action: action, username: user, userCode: userCode, timeout: 60)
    ).visit(url)
  }

  /// A person at a browser who answers every page with `action`, as `alice`.
  public static func person(_ action: ScriptedBrowser.Action = .approve, userCode: String? = nil)
    -> ScriptedBrowser
  {
    ScriptedBrowser(
      script: ScriptedBrowser.Script(action: action, username: "alice", userCode: userCode))
  }

  // MARK: AuthCore's side

  /// Registers `redirectURI` as Simkl's (its registration fixes the port). The tests let the
  /// kernel pick the port and register it afterwards: probing for a free port and binding it
  /// later races with every other test binding port 0.
  public func registerSimklRedirect(_ redirectURI: String) async {
    var settings = await server.settings(for: .simkl)
    settings.registeredRedirectURIs = [redirectURI]
    await server.setSettings(settings, for: .simkl)
  }

  /// The sandbox URL of `path`, as a configuration names an endpoint.
  public func endpoint(_ path: String) -> URL? { URL(string: server.url(path)) }

  /// Simkl as its preset describes it: two hosts, PIN, JSON exchange, `client_id`,
  /// `app-name`, `app-version` on every URL (the redirect port is registered per test).
  public var simkl: ProviderConfiguration {
    ProviderConfiguration(
      id: "simkl", name: "Simkl", clientID: SandboxProfile.defaultClientID, flows: [.pkce, .pin],
      authorizationEndpoint: endpoint(SandboxPaths.Simkl.authorize),
      tokenEndpoint: endpoint(SandboxPaths.Simkl.token),
      pinEndpoint: endpoint(SandboxPaths.Simkl.pin), tokenRequestEncoding: .json,
      loginTimeout: 60,
      extraRequestParameters: [
        "client_id": SandboxProfile.defaultClientID, "app-name": "authtui",
        "app-version": AuthTUIVersion.current,
      ], extraRequestParametersLocation: .query)
  }

  /// Hivesigner: JSON exchange, `scope=posting`, no refresh token.
  public var hivesigner: ProviderConfiguration {
    ProviderConfiguration(
      id: "hivesigner", name: "Hivesigner", clientID: SandboxProfile.defaultClientID,
      scopes: ["posting"], authorizationEndpoint: endpoint(SandboxPaths.Hivesigner.authorize),
      tokenEndpoint: endpoint(SandboxPaths.Hivesigner.token), tokenRequestEncoding: .json,
      loginTimeout: 60)
  }

  /// Muhajir Studio: form exchange, refresh without rotation.
  public var muhajir: ProviderConfiguration {
    ProviderConfiguration(
      id: "muhajir", name: "Muhajir Studio", issuer: server.url(SandboxPaths.Muhajir.issuer),
      clientID: SandboxProfile.defaultClientID,
      scopes: ["openid", "profile", "email", "offline_access"],
      authorizationEndpoint: endpoint(SandboxPaths.Muhajir.authorize),
      tokenEndpoint: endpoint(SandboxPaths.Muhajir.token), loginTimeout: 60)
  }

  /// The standards-complete provider: device grant, rotation, revocation, RFC 9207 `iss`.
  public var oidc: ProviderConfiguration {
    ProviderConfiguration(
      id: "oidc", name: "Sandbox OpenID Provider", issuer: server.url(SandboxPaths.OIDC.issuer),
      clientID: SandboxProfile.defaultClientID, flows: [.pkce, .device],
      scopes: ["openid", "profile", "offline_access"],
      authorizationEndpoint: endpoint(SandboxPaths.OIDC.authorize),
      tokenEndpoint: endpoint(SandboxPaths.OIDC.token),
      deviceAuthorizationEndpoint: endpoint(SandboxPaths.OIDC.deviceAuthorization),
      revocationEndpoint: endpoint(SandboxPaths.OIDC.revoke), loginTimeout: 60,
      requiresIssuerInAuthorizationResponse: true)
  }

  /// A client of `configuration` (the real transport and clock unless a test brings its own).
  public func client(
    _ configuration: ProviderConfiguration, clock: any WallClock = SystemClock(),
    transport: any Transport = URLSessionTransport()
  ) -> ProviderClient {
    ProviderClient(configuration: configuration, transport: transport, clock: clock)
  }

  /// Starts a browser sign-in and lets `person` answer it; returns the attempt's outcome and
  /// the last page the browser showed.
  public func signIn(
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

/// The app's side of the redirect: a loopback listener that answers `GET /callback` and keeps
/// the query parameters of every callback it received.
public final class CallbackCatcher: Sendable {
  private let listener: LoopbackServer
  private let log = CallbackLog()

  init() throws {
    let log = self.log
    listener = try LoopbackServer(configuration: .callback) { request in
      guard request.path == "/callback" else { return .text("not here", status: 404) }
      await log.record(request.queryItems)
      return .html("<p>Signed in. You can return to the terminal.</p>")
    }
  }

  /// `http://127.0.0.1:PORT/callback`.
  public var redirectURI: String { "http://127.0.0.1:\(listener.port)/callback" }

  /// Every callback's parameters, in order.
  public func received() async -> [[String: String]] { await log.entries }

  /// The callbacks that carry `state`, in order: what an app takes, as it ignores the callback
  /// of any other sign-in. Under load one did arrive here: a browser another test had started
  /// followed its redirect late, to a port the kernel had by then given this listener.
  public func received(state: String) async -> [[String: String]] {
    await log.entries.filter { $0["state"] == state }
  }

  func stop() async { await listener.stop() }
}

actor CallbackLog {
  private(set) var entries: [[String: String]] = []

  func record(_ items: [FormEncoding.Pair]) {
    var parameters: [String: String] = [:]
    for item in items where parameters[item.name] == nil { parameters[item.name] = item.value }
    entries.append(parameters)
  }
}

extension RawHTTPResponse {
  /// A string member of the JSON body.
  public subscript(member: String) -> String? { json?[member] as? String }

  /// An integer member of the JSON body.
  public func integer(_ member: String) -> Int? { (json?[member] as? NSNumber)?.intValue }

  /// The query parameters of the `Location` header.
  public var locationQuery: [String: String] {
    guard let location = header("Location"), let mark = location.firstIndex(of: "?") else {
      return [:]
    }
    var parameters: [String: String] = [:]
    for item in FormEncoding.decode(location[location.index(after: mark)...])
    where parameters[item.name] == nil {
      parameters[item.name] = item.value
    }
    return parameters
  }
}
