import AuthCore
import Crypto
import Foundation
import JSON
import Loopback

/// A server's side of DPoP (RFC 9449 §4.3): checks the proof a request carries, remembers the
/// `jti` of each proof it took so that none is taken twice, and holds the nonce proofs must
/// carry when the settings ask for one (§8, §9). Written apart from AuthCore's proof builder,
/// so that the two check each other.
struct DPoPLedger: Sendable {
  /// How far a proof's `iat` may be from the sandbox's now, either way.
  static let window: TimeInterval = 300

  /// The nonce every proof carries when `dpop_nonce` is on; a new one after a reset.
  let nonce = RandomToken.opaque(byteCount: 16)
  /// The `jti` of every proof taken, until its `iat` leaves the window.
  private var seen: [String: Date] = [:]

  /// A proof that passed every check.
  struct Proof: Sendable, Equatable {
    /// The RFC 7638 thumbprint of its key: what a token bound to it remembers (`jkt`).
    let thumbprint: String
  }

  /// What a request's proof amounts to.
  enum Outcome: Sendable, Equatable {
    /// The request carries no `DPoP` header.
    case absent
    /// A good proof.
    case valid(Proof)
    /// A bad proof, and why.
    case refused(String)
    /// A good proof without the nonce it must carry.
    case nonceNeeded
  }

  /// Checks the `DPoP` header of `request`, sent to `url` (without query), carrying
  /// `accessToken` when given (its hash must be the proof's `ath`).
  mutating func check(
    _ request: HTTPRequest, url: String, accessToken: String?, settings: ProfileSettings,
    now: Date
  ) -> Outcome {
    let values = request.headers.filter { $0.name.lowercased() == "dpop" }.map(\.value)
    guard let text = values.first else { return .absent }
    guard values.count == 1 else { return .refused("Send one DPoP header, not \(values.count).") }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let header = Self.object(parts[0]), let claims = Self.object(parts[1]),
      let signature = try? Base64URL.decode(parts[2])
    else { return .refused("The proof is not a JWT in compact form (RFC 9449 §4.2).") }
    guard header["typ"]?.stringValue == "dpop+jwt" else {
      return .refused("The proof's typ is not dpop+jwt.")
    }
    let algorithm = header["alg"]?.stringValue ?? ""
    guard algorithm == "ES256", settings.dpopSigningAlgorithms.contains(algorithm) else {
      return .refused(
        "The proof's alg is not one this server takes "
          + "(\(settings.dpopSigningAlgorithms.joined(separator: ", ")); it verifies ES256).")
    }
    guard let jwk = header["jwk"]?.objectValue, jwk["d"] == nil,
      jwk["kty"]?.stringValue == "EC", jwk["crv"]?.stringValue == "P-256",
      let xText = jwk["x"]?.stringValue, let yText = jwk["y"]?.stringValue,
      let x = try? Base64URL.decode(xText), let y = try? Base64URL.decode(yText),
      let key = try? PublicKey.p256(x: x, y: y)
    else { return .refused("The proof's jwk is not a public P-256 key.") }
    let signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
    guard key.isValidSignature(signature, for: signingInput, algorithm: .es256) else {
      return .refused("The proof's signature does not verify with its jwk.")
    }
    guard claims["htm"]?.stringValue == request.method else {
      return .refused("The proof's htm is not \(request.method).")
    }
    guard claims["htu"]?.stringValue == url else {
      return .refused("The proof's htu is not \(url).")
    }
    guard let issuedAt = claims["iat"]?.strictNumberValue,
      abs(issuedAt - now.timeIntervalSince1970) <= Self.window
    else {
      return .refused(
        "The proof's iat is more than \(Int(Self.window)) seconds from the server's time.")
    }
    guard let identifier = claims["jti"]?.stringValue, !identifier.isEmpty,
      identifier.utf8.count <= 256
    else { return .refused("The proof has no jti.") }
    if let accessToken {
      guard claims["ath"]?.stringValue == Base64URL.encode(SHA256.hash(accessToken)) else {
        return .refused("The proof's ath is not the hash of the access token sent.")
      }
    }
    if settings.dpopNonceRequired, claims["nonce"]?.stringValue != nonce {
      return .nonceNeeded
    }
    seen = seen.filter { $0.value > now }
    guard seen[identifier] == nil else {
      return .refused("This proof was used before (its jti is known): a replay.")
    }
    seen[identifier] = now.addingTimeInterval(Self.window)
    // RFC 7638 §3.2: the required members, in lexicographic order, no whitespace.
    let members: OrderedJSON = [
      "crv": "P-256", "kty": "EC", "x": .string(xText), "y": .string(yText),
    ]
    return .valid(Proof(thumbprint: Base64URL.encode(SHA256.hash(members.text))))
  }

  private static func object(_ part: Substring) -> [String: JSONValue]? {
    guard let bytes = try? Base64URL.decode(part) else { return nil }
    return JSONValue.object(from: bytes)
  }
}
