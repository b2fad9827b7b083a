import Crypto
import Foundation
import JSON

/// A DPoP proof (RFC 9449 §4): a JWT signed with the client's key, sent in the `DPoP` header of
/// one HTTP request, with header `typ` `dpop+jwt`, `alg` `ES256` and the public `jwk`, and the
/// claims `jti` (random), `htm`, `htu`, `iat`, and `ath` (for a request that carries an access
/// token) and `nonce` (when the server gave one) (§4.2).
public struct DPoPProof: Sendable, Equatable {
  /// `htm` (RFC 9449 §4.2): the request's method.
  public let method: String
  /// `htu` (§4.2): the request's URL without query and fragment.
  public let targetURI: String
  /// `iat` (§4.2): seconds since the epoch, whole.
  public let issuedAt: Int
  /// `jti` (§4.2): 256 random bits, base64url: the server refuses a proof it saw before.
  public let identifier: String
  /// `ath` (§4.2): base64url SHA-256 of the access token the request carries, if any.
  public let accessTokenHash: String?
  /// `nonce` (§8): the server's latest `DPoP-Nonce`, when it gave one.
  public let nonce: String?

  /// The claims of a proof for `method` `url` at `now`, with `jti` from `random`.
  init(
    method: String, url: URL, now: Date, accessToken: String?, nonce: String?,
    random: some RandomSource
  ) {
    self.method = method
    targetURI = Self.targetURI(of: url)
    issuedAt = Int(now.timeIntervalSince1970.rounded(.down))
    identifier = Base64URL.encode(random.bytes(count: 32))
    accessTokenHash = accessToken.map { Base64URL.encode(SHA256.hash($0)) }
    self.nonce = nonce
  }

  /// `url` without its query and fragment, as `htu` takes it (RFC 9449 §4.2): the part of its
  /// text before the first `?` or `#`, so the path keeps the spelling the request is sent with.
  public static func targetURI(of url: URL) -> String {
    let text = url.absoluteString
    let end = text.firstIndex { $0 == "?" || $0 == "#" } ?? text.endIndex
    return String(text[..<end])
  }

  /// The JWT header (RFC 9449 §4.2) for `key`'s public half.
  static func header(for key: JWKPublicParameters) -> OrderedJSON {
    let jwk = OrderedJSON.object(key.requiredMembers.map { ($0.name, .string($0.value)) })
    return .object([("typ", "dpop+jwt"), ("alg", "ES256"), ("jwk", jwk)])
  }

  /// The JWT claims.
  var claims: OrderedJSON {
    var members: [(String, OrderedJSON)] = [
      ("jti", .string(identifier)), ("htm", .string(method)), ("htu", .string(targetURI)),
      ("iat", .int(issuedAt)),
    ]
    if let accessTokenHash { members.append(("ath", .string(accessTokenHash))) }
    if let nonce { members.append(("nonce", .string(nonce))) }
    return .object(members)
  }

  /// The proof in JWS compact serialization, signed by `signer` (a P-256 key).
  func signed(by signer: any DPoPSigner) async throws(AuthError) -> String {
    let key = signer.publicParameters
    guard case .p256 = key else {
      throw .dpopProofFailed("the DPoP key is not a P-256 key, and proofs are signed ES256")
    }
    let signingInput =
      Base64URL.encode(Array(Self.header(for: key).text.utf8)) + "."
      + Base64URL.encode(Array(claims.text.utf8))
    let signature: [UInt8]
    do {
      signature = try await signer.signature(for: Array(signingInput.utf8))
    } catch {
      throw .dpopProofFailed(String(describing: error))
    }
    guard signature.count == 64 else {
      throw .dpopProofFailed("the key gave a signature of \(signature.count) bytes, not 64")
    }
    return signingInput + "." + Base64URL.encode(signature)
  }
}
