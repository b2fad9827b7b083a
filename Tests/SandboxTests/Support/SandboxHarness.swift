import AuthCore
import Crypto
import Foundation
import Loopback
import Sandbox
import TestSupport

/// A sandbox on a free port, a loopback callback listener standing in for the app, and
/// requests made the way clients and browsers make them, over real HTTP.
///
/// The sandbox's clock stands still at `clockOrigin`: only the offsets a test sets move its
/// time. On a busy machine seconds may pass between two requests of a test, and a real clock
/// would then turn "a poll too soon" into one on time.
final class SandboxHarness: Sendable {
  let server: SandboxServer
  let callback: CallbackCatcher
  /// The sandbox's now before any offset.
  let clockOrigin: Date

  init(configuration: SandboxConfiguration = SandboxConfiguration()) async throws {
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

  var port: UInt16 { server.port }

  /// Stops both servers.
  func stop() async {
    await callback.stop()
    await server.stop()
  }

  // MARK: Requests

  func get(_ target: String, headers: [String] = []) async -> RawHTTPResponse {
    await RawHTTPClient.request("GET", target, port: port, headers: headers)
  }

  func postForm(_ target: String, _ fields: [(String, String)], headers: [String] = []) async
    -> RawHTTPResponse
  {
    await RawHTTPClient.request(
      "POST", target, port: port,
      headers: ["Content-Type: application/x-www-form-urlencoded"] + headers,
      body: FormEncoding.encode(fields.map { (name: $0.0, value: $0.1) }))
  }

  func postJSON(_ target: String, _ json: String, headers: [String] = []) async -> RawHTTPResponse {
    await RawHTTPClient.request(
      "POST", target, port: port, headers: ["Content-Type: application/json"] + headers,
      body: json)
  }

  /// `target?name=value&…`, escaped.
  static func target(_ path: String, _ query: [(String, String)]) -> String {
    query.isEmpty ? path : path + "?" + FormEncoding.encode(query.map { (name: $0.0, value: $0.1) })
  }

  // MARK: The user

  /// Opens `url` in the scripted browser and plays `action` as `user`.
  func browse(
    _ url: String, action: ScriptedBrowser.Action = .approve, user: String? = nil,
    userCode: String? = nil
  ) async -> ScriptedBrowser.Outcome {
    await ScriptedBrowser(
      script: ScriptedBrowser.Script(
        action: action, username: user, userCode: userCode, timeout: 60)
    ).visit(url)
  }

  /// The sandbox URL of `path` with `query`.
  func url(_ path: String, _ query: [(String, String)] = []) -> String {
    server.baseURL + Self.target(path, query)
  }
}

/// The app's side of the redirect: a loopback listener that answers `GET /callback` and keeps
/// the query parameters of every callback it received.
final class CallbackCatcher: Sendable {
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
  var redirectURI: String { "http://127.0.0.1:\(listener.port)/callback" }

  /// Every callback's parameters, in order.
  func received() async -> [[String: String]] { await log.entries }

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
  subscript(member: String) -> String? { json?[member] as? String }

  /// An integer member of the JSON body.
  func integer(_ member: String) -> Int? { (json?[member] as? NSNumber)?.intValue }

  /// The query parameters of the `Location` header.
  var locationQuery: [String: String] {
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
