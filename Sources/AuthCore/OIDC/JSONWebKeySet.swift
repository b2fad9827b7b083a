import Crypto
import Foundation
import JSON

/// A provider's published signing keys (JWK Set, RFC 7517 §5), reduced to those that can check
/// an RS256 or ES256 id_token.
///
/// A key is kept when its `kty` is `RSA`, or `EC` on `P-256`; its `use`, if present, is `sig`;
/// its `key_ops`, if present, include `verify`; its `alg`, if present, matches its type (RS256,
/// ES256); and its numbers make a valid public key (RSA of 2048 bits or more, a point on the
/// curve). Every other key is set aside in `skipped` with the reason, so a token that names one
/// is refused with that reason rather than as unknown. One bad key never spoils the others.
public struct JSONWebKeySet: Sendable, Equatable {
  /// One usable verification key.
  public struct Key: Sendable, Equatable {
    /// `kid` (RFC 7517 §4.5), when the provider names its keys.
    public let keyID: String?
    /// The key; its `algorithm` is the only one it verifies.
    public let publicKey: PublicKey

    /// A key called `keyID`.
    public init(keyID: String?, publicKey: PublicKey) {
      self.keyID = keyID
      self.publicKey = publicKey
    }
  }

  /// A published key that cannot check id_tokens, and why.
  public struct SkippedKey: Sendable, Equatable {
    /// `kid`, when present.
    public let keyID: String?
    /// Why it was set aside (`"use is enc"`, `"curve P-384 is not supported"`…).
    public let reason: String
  }

  /// The usable keys, in the document's order.
  public let keys: [Key]
  /// The keys set aside, in the document's order.
  public let skipped: [SkippedKey]

  /// A set of the given keys.
  public init(keys: [Key], skipped: [SkippedKey] = []) {
    self.keys = keys
    self.skipped = skipped
  }

  /// Reads a JWK Set document: `{"keys": [ … ]}`. Fails only when `keys` is not an array;
  /// unusable keys are skipped.
  public init(json: [String: JSONValue]) throws(AuthError) {
    guard let entries = json["keys"]?.arrayValue else {
      throw .malformedResponse("the provider's jwks_uri answer has no `keys` array")
    }
    var keys: [Key] = []
    var skipped: [SkippedKey] = []
    for entry in entries {
      guard let members = entry.objectValue else {
        skipped.append(SkippedKey(keyID: nil, reason: "it is not a JSON object"))
        continue
      }
      let keyID = members["kid"]?.stringValue
      switch Self.publicKey(members) {
      case .success(let key): keys.append(Key(keyID: keyID, publicKey: key))
      case .failure(let reason): skipped.append(SkippedKey(keyID: keyID, reason: reason.text))
      }
    }
    self.init(keys: keys, skipped: skipped)
  }

  /// Why a JWK was set aside.
  struct Refusal: Error {
    let text: String
    init(_ text: String) { self.text = text }
  }

  /// The verification key a JWK describes, or why it cannot be used.
  static func publicKey(_ jwk: [String: JSONValue]) -> Result<PublicKey, Refusal> {
    if let use = jwk["use"], use.stringValue != "sig" {
      return .failure(Refusal("its use is \(use.stringValue ?? "not a string"), not sig"))
    }
    if let operations = jwk["key_ops"],
      !(operations.arrayValue ?? []).contains(.string("verify"))
    {
      return .failure(Refusal("its key_ops do not include verify"))
    }
    let kind = jwk["kty"]?.stringValue ?? "missing"
    let algorithm: SignatureAlgorithm
    switch kind {
    case "RSA":
      algorithm = .rs256
    case "EC":
      let curve = jwk["crv"]?.stringValue ?? "missing"
      guard curve == "P-256" else {
        return .failure(Refusal("its curve \(curve) is not supported (only P-256)"))
      }
      algorithm = .es256
    default:
      return .failure(Refusal("its key type \(kind) is not supported (only RSA and EC)"))
    }
    if let declared = jwk["alg"], declared.stringValue != algorithm.rawValue {
      let intended = declared.stringValue ?? "another algorithm"
      return .failure(Refusal("it is meant for \(intended), not \(algorithm.rawValue)"))
    }
    do {
      switch algorithm {
      case .rs256:
        return .success(try .rsa(modulus: try bytes(jwk, "n"), exponent: try bytes(jwk, "e")))
      case .es256:
        return .success(try .p256(x: try bytes(jwk, "x"), y: try bytes(jwk, "y")))
      }
    } catch let refusal as Refusal {
      return .failure(refusal)
    } catch {
      return .failure(Refusal("\(error)"))
    }
  }

  private static func bytes(_ jwk: [String: JSONValue], _ name: String) throws -> [UInt8] {
    guard let text = jwk[name]?.stringValue else { throw Refusal("it has no `\(name)`") }
    do {
      return try Base64URL.decode(text)
    } catch {
      throw Refusal("its `\(name)` is not base64url")
    }
  }

  /// What `select` found.
  enum Selection: Equatable {
    /// The keys to try, all of the token's algorithm (several only when a `kid` is repeated).
    case keys([PublicKey])
    /// No key fits: possibly a rotation this copy of the set has not seen yet.
    case notFound
    /// A key fits the `kid` but cannot verify this token, or the token cannot pick a key.
    case refused(IDTokenError)
  }

  /// The keys that may have signed a token with `algorithm` and `keyID` (OIDC Core §10.1): the
  /// ones with that `kid`, or, when the token names none, the only key of its type.
  func select(algorithm: SignatureAlgorithm, keyID: String?) -> Selection {
    let candidates = keys.filter { $0.publicKey.algorithm == algorithm }
    guard let keyID else {
      switch candidates.count {
      case 0: return .notFound
      case 1: return .keys([candidates[0].publicKey])
      default: return .refused(.ambiguousKey)
      }
    }
    let named = candidates.filter { $0.keyID == keyID }
    if !named.isEmpty { return .keys(named.map(\.publicKey)) }
    if let other = keys.first(where: { $0.keyID == keyID }) {
      let reason =
        "it is an \(other.publicKey.algorithm.rawValue) key and the token says "
        + algorithm.rawValue
      return .refused(.unusableKey(kid: keyID, reason: reason))
    }
    if let skipped = skipped.first(where: { $0.keyID == keyID }) {
      return .refused(.unusableKey(kid: keyID, reason: skipped.reason))
    }
    return .notFound
  }
}
