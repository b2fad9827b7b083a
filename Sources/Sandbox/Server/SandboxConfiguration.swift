import Crypto
import Foundation

/// How a sandbox starts.
public struct SandboxConfiguration: Sendable {
  /// Simkl's registered redirect URI when none is given: Simkl fixes the port per
  /// registration, and 8765 is the port its own documentation uses.
  public static let defaultSimklRedirectURI = "http://127.0.0.1:8765/callback"

  /// The redirect URIs registered for Simkl's `sandbox-client`, matched byte for byte.
  public var simklRedirectURIs: [String]
  /// Receives one line per request: method, path (without the query, user codes hidden) and
  /// status. Never a code, token or query string.
  public var requestLog: (@Sendable (String) -> Void)?
  /// Signing keys the `oidc` and `muhajir` profiles start with (and return to on reset), one
  /// per algorithm; empty makes fresh ones on first use. A test suite that starts many
  /// sandboxes passes one shared set, since making an RSA key is the slowest thing the sandbox
  /// does. Rotation always makes fresh keys.
  public var signingKeys: [SigningKey]
  /// The clock the sandbox's now (plus the offset the clock hook sets) is read from: the real
  /// one by default. A test that checks intervals (a poll too soon, a code too old) passes a
  /// clock that stands still, so only the offsets it sets move time, however slowly its
  /// requests arrive on a busy machine.
  public var clock: @Sendable () -> Date

  /// The defaults: Simkl registered at `http://127.0.0.1:8765/callback`, no request log, fresh
  /// signing keys, the real clock.
  public init(
    simklRedirectURIs: [String] = [SandboxConfiguration.defaultSimklRedirectURI],
    requestLog: (@Sendable (String) -> Void)? = nil, signingKeys: [SigningKey] = [],
    clock: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.simklRedirectURIs = simklRedirectURIs
    self.requestLog = requestLog
    self.signingKeys = signingKeys
    self.clock = clock
  }

  /// One fresh key per algorithm the sandbox can sign id_tokens with, for `signingKeys`.
  ///
  /// `authtui-sandbox` makes them before it listens rather than at the first id_token: an RSA
  /// key takes a tenth of a second on a quiet machine and many seconds on a busy one, and made
  /// inside a token request that time counts against the client's deadline.
  public static func freshSigningKeys() throws -> [SigningKey] {
    try SignatureAlgorithm.allCases.map { try SigningKey.generate($0) }
  }

  /// The settings each profile starts with (and returns to on reset).
  func initialSettings() -> [SandboxProfile: ProfileSettings] {
    var settings: [SandboxProfile: ProfileSettings] = [:]
    for profile in SandboxProfile.allCases {
      settings[profile] = .defaults(for: profile)
    }
    settings[.simkl]?.registeredRedirectURIs = simklRedirectURIs
    return settings
  }
}
