import AuthCore
import Crypto
import Foundation
import JSON

extension FuzzTargets {
  /// The key pair the id_token targets sign with: made at start, so no input can carry a
  /// signature it accepts unless the harness made it.
  private static let signer: (key: SigningKey, keys: JSONWebKeySet)? = {
    guard let key = try? SigningKey.generate(.es256), let publicKey = try? key.publicKey() else {
      return nil
    }
    return (key, JSONWebKeySet(keys: [.init(keyID: "fuzz", publicKey: publicKey)]))
  }()

  private static let validator = IDTokenValidator(
    issuer: "https://issuer.example", clientID: "fuzz-client")
  private static let now = Date(timeIntervalSince1970: 1_750_000_000)

  /// An id_token as text: the compact JWS parser (RFC 7515 §7.1) and the checks before the
  /// signature.
  ///
  /// Nothing the fuzzer writes may validate: it cannot sign with the harness's key, so
  /// acceptance would mean a check was skipped (`alg: none`, a key confusion, a lax parse).
  static let compactJWS = FuzzTarget(
    name: "jws", summary: "IDTokenValidator / CompactJWS: id_token text"
  ) { bytes in
    guard let signer else { return }
    let text = String(fuzzInput: bytes)
    let accepted = try? validator.validate(
      text, keys: signer.keys, now: now, nonce: nil, accessToken: nil)
    require(accepted == nil, "an id_token the harness did not sign was accepted")
  }

  /// An id_token's claims (OIDC Core §3.1.3.7), signed by the harness so that the claim checks
  /// run on whatever payload the fuzzer writes.
  ///
  /// An accepted token names the issuer and client, has not expired and was not issued in the
  /// future, and carries the nonce sent.
  static let idTokenClaims = FuzzTarget(
    name: "id-token", summary: "IDTokenValidator: the claims of a signed id_token"
  ) { bytes in
    guard let signer else { return }
    let header = #"{"alg":"ES256","kid":"fuzz","typ":"JWT"}"#
    let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(bytes)
    guard let signature = try? signer.key.signature(for: Array(signingInput.utf8)) else { return }
    let token = signingInput + "." + Base64URL.encode(signature)
    for nonce in [nil, "fuzz-nonce"] {
      guard
        let accepted = try? validator.validate(
          token, keys: signer.keys, now: now, nonce: nonce, accessToken: "fuzz-access-token")
      else { continue }
      require(accepted.issuer == validator.issuer, "accepted issuer \(accepted.issuer)")
      require(accepted.audiences.contains(validator.clientID), "accepted another audience")
      require(!accepted.subject.isEmpty, "accepted an empty subject")
      require(now < accepted.expiresAt.addingTimeInterval(300), "accepted an expired token")
      require(accepted.issuedAt <= now.addingTimeInterval(300), "accepted a future token")
      if let nonce { require(accepted.nonce == nonce, "accepted another nonce") }
      _ = accepted.description
    }
  }

  /// A JWK Set (RFC 7517 §5) from a `jwks_uri`.
  ///
  /// Every entry of `keys` ends up either as a usable key or as a skipped one.
  static let jwks = FuzzTarget.readingJSONObject(
    name: "jwks", summary: "JSONWebKeySet: jwks_uri answers"
  ) { json in
    guard let set = try? JSONWebKeySet(json: json) else { return }
    if case .array(let entries)? = json["keys"] {
      require(
        set.keys.count + set.skipped.count == entries.count,
        "\(entries.count) entries became \(set.keys.count) keys and \(set.skipped.count) skipped")
    }
    for key in set.keys {
      require(!key.publicKey.subjectPublicKeyInfo.isEmpty, "a key without a public key")
    }
  }
}
