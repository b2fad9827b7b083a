import Crypto
import Foundation

/// Whether a protocol extension the server may offer is used (the provider file's `par` and
/// `dpop`).
public enum ProtocolMode: String, Sendable, CaseIterable, Codable {
  /// Used when the server's metadata offers it (the default).
  case auto
  /// Used always: a server that does not offer it is an error before the sign-in starts.
  case required
  /// Never used.
  case off
}

extension ProviderConfiguration {
  /// Where this sign-in pushes its authorization request (RFC 9126 §2), or nil when it sends
  /// it through the browser as it is. Throws, before any listener or browser, when `par` is
  /// `required` and the server publishes no PAR endpoint, or when the server takes only
  /// pushed requests and `par` is `off` or it publishes none.
  public func pushedAuthorizationTarget() throws(AuthError) -> URL? {
    var endpoint: URL?
    if pushedAuthorizationRequestEndpoint != nil {
      endpoint = try self.endpoint(
        \.pushedAuthorizationRequestEndpoint, named: "pushed_authorization_request_endpoint")
    }
    switch pushedAuthorization {
    case .off:
      if requiresPushedAuthorizationRequests { throw .pushedAuthorizationRequiredByServer(name) }
      return nil
    case .auto:
      if endpoint == nil && requiresPushedAuthorizationRequests {
        throw .pushedAuthorizationUnavailable(name, requiredByServer: true)
      }
      return endpoint
    case .required:
      guard let endpoint else {
        throw .pushedAuthorizationUnavailable(name, requiredByServer: false)
      }
      return endpoint
    }
  }

  /// The algorithm of the DPoP proofs a sign-in sends (RFC 9449 §4.2): ES256 when `dpop` is
  /// `auto` or `required` and the server lists it in `dpop_signing_alg_values_supported`;
  /// nil when no proofs are sent. Throws when `dpop` is `required` and the server lists no
  /// algorithm authtui signs with (a server that publishes no list included).
  public func dpopAlgorithm() throws(AuthError) -> SignatureAlgorithm? {
    let offered = dpopSigningAlgorithms.contains(SignatureAlgorithm.es256.rawValue)
    switch dpop {
    case .off: return nil
    case .auto: return offered ? .es256 : nil
    case .required:
      guard offered else { throw .dpopUnsupported(name, offered: dpopSigningAlgorithms) }
      return .es256
    }
  }
}
