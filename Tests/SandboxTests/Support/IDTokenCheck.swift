import Crypto
import Foundation
import TestSupport

/// Verifies an id_token the way a relying party does: the `kid` picks a key from the JWKS,
/// `Crypto.PublicKey` checks the signature; the claims come back for the test to inspect.
struct IDTokenCheck {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  let header: [String: Any]
  let claims: [String: Any]

  init(_ token: String, jwks: [String: Any]) throws {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { throw Failure(description: "not a compact JWS") }
    guard
      let header = try JSONSerialization.jsonObject(with: Data(Base64URL.decode(parts[0])))
        as? [String: Any],
      let claims = try JSONSerialization.jsonObject(with: Data(Base64URL.decode(parts[1])))
        as? [String: Any]
    else { throw Failure(description: "header or claims are not JSON objects") }
    guard let kid = header["kid"] as? String, let alg = header["alg"] as? String,
      let algorithm = SignatureAlgorithm(rawValue: alg)
    else { throw Failure(description: "no kid or an unknown alg") }
    let keys = jwks["keys"] as? [[String: Any]] ?? []
    guard let jwk = keys.first(where: { $0["kid"] as? String == kid }) else {
      throw Failure(description: "kid \(kid) is not in the JWKS")
    }
    let key: PublicKey
    switch jwk["kty"] as? String {
    case "RSA":
      key = try .rsa(
        modulus: Base64URL.decode(jwk["n"] as? String ?? ""),
        exponent: Base64URL.decode(jwk["e"] as? String ?? ""))
    case "EC":
      key = try .p256(
        x: Base64URL.decode(jwk["x"] as? String ?? ""),
        y: Base64URL.decode(jwk["y"] as? String ?? ""))
    default:
      throw Failure(description: "unknown kty")
    }
    let signingInput = Array("\(parts[0]).\(parts[1])".utf8)
    guard
      key.isValidSignature(try Base64URL.decode(parts[2]), for: signingInput, algorithm: algorithm)
    else { throw Failure(description: "the signature does not verify") }
    self.header = header
    self.claims = claims
  }

  subscript(claim: String) -> String? { claims[claim] as? String }
}
