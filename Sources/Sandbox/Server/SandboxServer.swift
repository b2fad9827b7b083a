import AuthCore
import Foundation
import Loopback

/// The sandbox provider: a real HTTP server on 127.0.0.1 that reproduces Simkl, Hivesigner and
/// Muhajir Studio with their quirks (PROVIDERS.md), plus a standards-complete OpenID provider,
/// each under its own path prefix (`SandboxPaths`). `authtui demo`, the `authtui-sandbox`
/// executable and the tests all run it through this type.
///
/// ```swift
/// let sandbox = try await SandboxServer.start()
/// let issuer = sandbox.url(SandboxPaths.OIDC.issuer)   // http://127.0.0.1:PORT/oidc
/// await sandbox.setClockOffset(seconds: 901)           // make codes "old"
/// let stats = await sandbox.stats()                    // stats[.exchanges], stats[.refreshes, .oidc]
/// await sandbox.stop()
/// ```
///
/// Everything the `/_sandbox/` hooks do over HTTP (see `SandboxEngine.hook`) is also available
/// here as a typed call. The client id of every profile is `sandbox-client`; no client secret
/// is ever needed.
public final class SandboxServer: Sendable {
  /// `http://127.0.0.1:PORT`.
  public let baseURL: String
  /// The port the server listens on.
  public let port: UInt16
  private let loopback: LoopbackServer
  private let engine: SandboxEngine

  private init(loopback: LoopbackServer, engine: SandboxEngine) {
    self.loopback = loopback
    self.engine = engine
    self.baseURL = loopback.baseURL
    self.port = loopback.port
  }

  /// Binds `address` (port 0 picks a free one) and starts serving.
  ///
  /// - Throws: `SandboxStartError` when the port is taken or the socket cannot be opened.
  public static func start(
    address: ListenAddress = ListenAddress(port: 0),
    configuration: SandboxConfiguration = SandboxConfiguration()
  ) async throws(SandboxStartError) -> SandboxServer {
    let engine = SandboxEngine(configuration: configuration)
    let log = configuration.requestLog
    let loopback: LoopbackServer
    do {
      loopback = try LoopbackServer(port: address.port, configuration: .server) { request in
        await serve(request, engine: engine, log: log)
      }
    } catch {
      throw SandboxStartError(error)
    }
    await engine.attach(baseURL: loopback.baseURL)
    return SandboxServer(loopback: loopback, engine: engine)
  }

  /// Stops serving and waits until the port is closed.
  public func stop() async {
    await loopback.stop()
  }

  /// `baseURL` + `path`, e.g. `url(SandboxPaths.OIDC.issuer)`.
  public func url(_ path: String) -> String { baseURL + path }

  // MARK: Hooks, typed

  /// The counters (`GET /_sandbox/stats`).
  public func stats() async -> SandboxStats {
    await engine.stats
  }

  /// Makes the next `fault.count` requests under `fault.pathPrefix` fail
  /// (`POST /_sandbox/fault`).
  public func inject(_ fault: SandboxFault) async {
    await engine.addFault(fault)
  }

  /// Forgets the faults not yet fired.
  public func clearFaults() async {
    await engine.clearFaults()
  }

  /// Sets the clock offset: the sandbox's now is its clock (the real one by default) plus
  /// `seconds`
  /// (`POST /_sandbox/clock {"offset_seconds":…}`).
  public func setClockOffset(seconds: TimeInterval) async {
    await engine.setClockOffset(seconds)
  }

  /// The sandbox's now.
  public func now() async -> Date {
    await engine.now
  }

  /// A profile's settings.
  public func settings(for profile: SandboxProfile) async -> ProfileSettings {
    await engine.settings(for: profile)
  }

  /// Replaces a profile's settings (`POST /_sandbox/settings`).
  public func setSettings(_ settings: ProfileSettings, for profile: SandboxProfile) async {
    await engine.setSettings(settings, for: profile)
  }

  /// Makes a profile's refresh tokens invalid (every profile's when nil); returns how many
  /// were still usable (`POST /_sandbox/invalidate`).
  @discardableResult
  public func invalidateRefreshTokens(of profile: SandboxProfile? = nil) async -> Int {
    await engine.invalidateRefreshTokens(of: profile)
  }

  /// New signing keys for `profile` (`oidc` and `muhajir` when nil); the old `kid`s leave the
  /// JWKS. Returns the new `kid`s (`POST /_sandbox/rotate-keys`).
  @discardableResult
  public func rotateKeys(of profile: SandboxProfile? = nil) async throws -> [SandboxProfile:
    [String]]
  {
    try await engine.rotateKeys(of: profile)
  }

  /// Everything back to how it started: codes, tokens, keys, counters, faults, clock, settings
  /// (`POST /_sandbox/reset`).
  public func reset() async {
    await engine.reset()
  }

  // MARK: Serving

  /// The longest a `hold` fault keeps its request when no release comes.
  static let longestHold: Duration = .seconds(600)

  private static func serve(
    _ request: HTTPRequest, engine: SandboxEngine, log: (@Sendable (String) -> Void)?
  ) async -> HTTPResponse {
    let response: HTTPResponse
    if request.path.hasPrefix("/_sandbox/") {
      response = await engine.hook(request)
    } else {
      switch await engine.takeFault(for: request.path) {
      case nil:
        response = await engine.respond(to: request)
      case (.delay(let milliseconds), _)?:
        try? await Task.sleep(for: .milliseconds(milliseconds))
        response = await engine.respond(to: request)
      case (.hold, let hold)?:
        let end = ContinuousClock.now + Self.longestHold
        while !(await engine.isReleased(hold)), ContinuousClock.now < end, !Task.isCancelled {
          try? await Task.sleep(for: .milliseconds(20))
        }
        response = await engine.respond(to: request)
      case (.status500, _)?:
        response = .html(
          Pages.page(
            provider: "authtui", title: "500 Internal Server Error",
            body: "<p>Something went wrong (a fault injected by the sandbox).</p>\n"),
          status: 500)
      case (.garbage, _)?:
        response = HTTPResponse(
          status: 200, headers: [("Content-Type", "application/json")],
          body: Array("\u{1}<<not json>>{\"access_token\":".utf8) + [0xFF, 0xFE, 0x00, 0x7B])
      case (.drop, _)?:
        response = .droppedConnection
      case (.dropAfterProcessing, _)?:
        _ = await engine.respond(to: request)
        response = .droppedConnection
      case (.answer(let status, let body), _)?:
        response = HTTPResponse(
          status: status, headers: [("Content-Type", "application/json")], body: Array(body.utf8))
      }
    }
    if let log {
      let outcome = response.dropsConnection ? "dropped" : String(response.status)
      log("\(request.method) \(redactedPath(request.path)) \(outcome)")
    }
    return response
  }

  /// The path without secrets for the log: a Simkl PIN poll's user code is hidden.
  static func redactedPath(_ path: String) -> String {
    let pinPrefix = SandboxPaths.Simkl.pin + "/"
    return path.hasPrefix(pinPrefix) ? pinPrefix + "{user_code}" : path
  }
}

extension SandboxEngine {
  func addFault(_ fault: SandboxFault) { faults.add(fault) }
  func clearFaults() { faults.clear() }
  func setClockOffset(_ seconds: TimeInterval) { clockOffset = seconds }
  func setSettings(_ value: ProfileSettings, for profile: SandboxProfile) {
    settings[profile] = value
  }
}
