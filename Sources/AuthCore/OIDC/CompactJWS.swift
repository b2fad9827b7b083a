import Crypto
import Foundation
import JSON

/// A JWS in compact serialization (RFC 7515 §7.1), parsed but not yet verified, whose `alg` is
/// one authtui accepts.
///
/// Parsing refuses everything a verifier must not try: other than three parts, parts that are
/// not strict unpadded base64url (so a token has one spelling only), a header or payload that
/// is not a JSON object, `alg` `none` or HMAC, and any `crit` extension.
struct CompactJWS: Sendable {
  /// The header's members (RFC 7515 §4).
  let header: [String: JSONValue]
  /// `alg` (RFC 7515 §4.1.1).
  let algorithm: SignatureAlgorithm
  /// `kid` (RFC 7515 §4.1.4), when the header names one.
  let keyID: String?
  /// The payload read as a JSON object: the JWT claims (RFC 7519 §4).
  let claims: [String: JSONValue]
  /// `BASE64URL(header) || '.' || BASE64URL(payload)`: what the signature covers (§5.2).
  let signingInput: [UInt8]
  /// The decoded signature; for ES256 the JWS form `r ‖ s` (RFC 7518 §3.4).
  let signature: [UInt8]

  /// Far above any real id_token; a bigger one is refused before any decoding.
  static let maximumLength = 64 * 1024

  /// Parses `text`, checking the algorithm before anything else is decoded.
  init(parsing text: String) throws(IDTokenError) {
    guard text.utf8.count <= Self.maximumLength else {
      throw .malformed("it is longer than \(Self.maximumLength / 1024) KiB")
    }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    if parts.count == 5 {
      throw .malformed("it is encrypted (JWE), which authtui does not support")
    }
    guard parts.count == 3 else { throw .malformed("it does not have three dot-separated parts") }
    let header = try Self.object(parts[0], part: "header")
    guard let name = header["alg"]?.stringValue else { throw .malformed("its header has no alg") }
    algorithm = try Self.algorithm(named: name)
    if let critical = header["crit"] {
      let names = critical.arrayValue?.compactMap(\.stringValue) ?? []
      throw .criticalHeader(names.isEmpty ? ["?"] : names)
    }
    switch header["kid"] {
    case nil: keyID = nil
    case .string(let kid)?: keyID = kid
    default: throw .malformed("its header's kid is not a string")
    }
    self.header = header
    claims = try Self.object(parts[1], part: "payload")
    do {
      signature = try Base64URL.decode(parts[2])
    } catch {
      throw .malformed("its signature is not base64url")
    }
    signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
  }

  /// The accepted algorithm called `name`, or the error naming why it is refused. `none` and
  /// `HS*` are matched without regard to case, as libraries that did so were attacked with
  /// `None` and `hs256`.
  static func algorithm(named name: String) throws(IDTokenError) -> SignatureAlgorithm {
    if let algorithm = SignatureAlgorithm(rawValue: name) { return algorithm }
    let folded = name.uppercased()
    if folded == "NONE" { throw .unsigned }
    if folded.hasPrefix("HS") { throw .symmetricAlgorithm(name) }
    throw .unsupportedAlgorithm(name)
  }

  private static func object(_ part: Substring, part name: String) throws(IDTokenError)
    -> [String: JSONValue]
  {
    let bytes: [UInt8]
    do {
      bytes = try Base64URL.decode(part)
    } catch {
      throw .malformed("its \(name) is not base64url")
    }
    guard let object = JSONValue.object(from: Data(bytes)) else {
      throw .malformed("its \(name) is not a JSON object")
    }
    return object
  }
}
