import AuthCore
import Foundation
import JSON

extension FuzzTargets {
  /// A `DPoP-Nonce` header (RFC 9449 §8.1), as every answer of a provider may carry one.
  ///
  /// An accepted nonce is 1 to `DPoPNonce.maximumLength` characters of the RFC's NQCHAR
  /// (visible ASCII but `"` and `\`), so it goes into a proof's JSON and a log line as it is,
  /// and reading it again gives it back.
  static let dpopNonce = FuzzTarget(
    name: "dpop-nonce", summary: "DPoPNonce: DPoP-Nonce headers"
  ) { bytes in
    guard let nonce = DPoPNonce.parse(String(fuzzInput: bytes)) else { return }
    require(!nonce.isEmpty, "an empty nonce accepted")
    require(nonce.utf8.count <= DPoPNonce.maximumLength, "an overlong nonce accepted")
    require(
      nonce.utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C },
      "a nonce with a character outside NQCHAR accepted")
    require(DPoPNonce.parse(nonce) == nonce, "reading an accepted nonce again changes it")
  }

  /// A `WWW-Authenticate` header (RFC 9110 §11.6.1) as its two readers take it: the `DPoP`
  /// challenge of a resource server that refuses a proof or asks for a nonce (RFC 9449 §7.1),
  /// the `Bearer` challenge of an identity endpoint that names a missing scope (RFC 6750 §3).
  ///
  /// What is kept from it is cleaned: no control character reaches a message.
  static let wwwAuthenticate = FuzzTarget(
    name: "www-authenticate", summary: "DPoPChallenge, BearerChallenge: WWW-Authenticate headers"
  ) { bytes in
    let text = String(fuzzInput: bytes)
    let dpop = DPoPChallenge(header: text)
    let bearer = BearerChallenge(header: text)
    guard dpop != nil || bearer != nil else { return }
    require(text.utf8.count <= AuthenticationChallenge.maximumLength, "an overlong header read")
    var kept: [String] = []
    if let dpop {
      require(dpop.algorithms.allSatisfy { !$0.isEmpty }, "an empty algorithm name")
      kept += [dpop.error, dpop.errorDescription].compactMap { $0 }
    }
    if let bearer { kept += [bearer.error, bearer.scope].compactMap { $0 } }
    for value in kept {
      require(
        !value.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F },
        "a control character kept in \(value.debugDescription)")
    }
  }

  /// A PAR endpoint's answer (RFC 9126 §2.2), read from its body as the client reads it.
  ///
  /// An accepted answer has a `request_uri` of visible ASCII that fits in a URL, and a lifetime
  /// between one second and an hour.
  static let pushedAuthorization = FuzzTarget.readingJSONObject(
    name: "pushed-authorization", summary: "PushedAuthorizationResponse: PAR answers"
  ) { json in
    guard let answer = try? PushedAuthorizationResponse(json: json) else { return }
    require(!answer.requestURI.isEmpty, "accepted without a request_uri")
    require(
      answer.requestURI.utf8.count <= PushedAuthorizationResponse.maximumRequestURILength,
      "an overlong request_uri accepted")
    require(
      answer.requestURI.unicodeScalars.allSatisfy { (0x21...0x7E).contains($0.value) },
      "a request_uri with a space or control character accepted")
    require(answer.expiresIn >= 1 && answer.expiresIn <= 3600, "expires_in \(answer.expiresIn)")
  }
}
