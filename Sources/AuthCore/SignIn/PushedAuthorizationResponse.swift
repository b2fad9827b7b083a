import Foundation
import JSON
import Spelling

/// A PAR endpoint's answer to a pushed authorization request (RFC 9126 §2.2): the
/// `request_uri` that stands for the request, and how long it may be used.
public struct PushedAuthorizationResponse: Sendable, Equatable {
  /// `request_uri` (RFC 9126 §2.2): the reference the browser's authorization URL carries.
  public let requestURI: String
  /// `expires_in` (§2.2): seconds the reference may be used, between 1 and an hour; 60 when
  /// the answer gives no usable number (the RFC's example, and a common lifetime).
  public let expiresIn: TimeInterval

  /// The longest `request_uri` accepted: it travels in a URL.
  public static let maximumRequestURILength = 2048
  /// The lifetime assumed when the answer gives none.
  public static let defaultLifetime: TimeInterval = 60

  /// Reads the answer's members; fails when `request_uri` is missing, empty, too long or holds
  /// characters no URI has.
  public init(json: [String: JSONValue]) throws(AuthError) {
    guard let requestURI = json["request_uri"]?.stringValue, !requestURI.isEmpty else {
      throw .malformedResponse("the pushed authorization answer has no request_uri")
    }
    guard requestURI.utf8.count <= Self.maximumRequestURILength,
      requestURI.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) })
    else {
      throw .malformedResponse(
        "the pushed authorization answer's request_uri is not a URI of visible ASCII "
          + "characters (at most \(Self.maximumRequestURILength))")
    }
    self.requestURI = requestURI
    let stated = json["expires_in"]?.numberValue ?? .nan
    expiresIn = stated.isFinite && stated >= 1 ? min(stated, 3600) : Self.defaultLifetime
  }
}
