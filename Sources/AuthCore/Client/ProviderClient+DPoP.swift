import Foundation
import JSON

extension ProviderClient {
  /// Sends a request to the token or revocation endpoint, or a request carrying a DPoP-bound
  /// `accessToken`: with a fresh DPoP proof (RFC 9449 §4) when the client holds a key, as it
  /// is otherwise. The proof carries the latest nonce the server gave, if any; an answer that
  /// asks for a nonce (`use_dpop_nonce`: a 400 at the token endpoint, a 401 with a `DPoP`
  /// challenge elsewhere, §8, §9) and names one is retried once, with it. With
  /// `uninterruptibly`, each send runs in the critical section (a code exchange: the server
  /// spends nothing on an answer asking for a nonce, so the retry is a new exchange).
  func sendProven(
    _ request: TransportRequest, accessToken: String? = nil, uninterruptibly: Bool = false
  ) async throws(AuthError) -> TransportResponse {
    guard let dpopKey else {
      return uninterruptibly ? try await sendUninterruptibly(request) : try await send(request)
    }
    var nonce = await dpopNonces.nonce(for: request.url)
    var retried = false
    while true {
      let claims = DPoPProof(
        method: request.method.rawValue, url: request.url, now: await clock.now(),
        accessToken: accessToken, nonce: nonce, random: random)
      var proven = request
      proven.headers.append(Header("DPoP", try await claims.signed(by: dpopKey)))
      let response =
        uninterruptibly ? try await sendUninterruptibly(proven) : try await send(proven)
      guard !retried, Self.asksForNonce(response),
        let fresh = DPoPNonce.parse(response.headers["dpop-nonce"])
      else { return response }
      nonce = fresh
      retried = true
    }
  }

  /// True when `response` asks for the proof again with the server's nonce (RFC 9449 §8: 400
  /// `use_dpop_nonce` from an authorization server; §9: 401 with
  /// `WWW-Authenticate: DPoP error="use_dpop_nonce"` from a resource server).
  static func asksForNonce(_ response: TransportResponse) -> Bool {
    switch response.status {
    case 400:
      return JSONValue.object(from: response.body)?["error"]?.stringValue
        == OAuthErrorCode.useDPoPNonce.rawValue
    case 401:
      guard let header = response.headers["www-authenticate"] else { return false }
      return DPoPChallenge(header: header)?.error == OAuthErrorCode.useDPoPNonce.rawValue
    default:
      return false
    }
  }

  /// A DPoP proof (RFC 9449 §4, §7) for a request of `method` to `url` that carries the
  /// DPoP-bound `accessToken` (as `Authorization: DPoP TOKEN`): `htm`, `htu` (without query and
  /// fragment), `iat`, a random `jti`, `ath` (the token's SHA-256), and the latest nonce
  /// `url`'s server gave this provider's clients, if any. Each call makes a new proof: a
  /// server refuses one it has seen. Throws `.dpopKeyMissing` when the client holds no key.
  public func resourceProof(method: String, url: URL, accessToken: String) async throws(AuthError)
    -> String
  {
    guard let dpopKey else { throw .dpopKeyMissing(configuration.name) }
    let claims = DPoPProof(
      method: method.uppercased(), url: url, now: await clock.now(), accessToken: accessToken,
      nonce: await dpopNonces.nonce(for: url), random: random)
    return try await claims.signed(by: dpopKey)
  }

  /// The client a sign-in runs with: its DPoP key kept when the provider uses DPoP
  /// (`ProviderConfiguration.dpopAlgorithm()`), dropped when it does not (the tokens are then
  /// Bearer tokens). Throws before anything is sent when `dpop` is `required` and the server
  /// offers no algorithm authtui signs with, or the caller gave no key.
  func resolvingDPoPForSignIn() throws(AuthError) -> ProviderClient {
    guard try configuration.dpopAlgorithm() != nil else {
      return dpopKey == nil ? self : signingProofs(with: nil)
    }
    if dpopKey == nil && configuration.dpop == .required {
      throw .dpopKeyMissing(configuration.name)
    }
    return self
  }
}
