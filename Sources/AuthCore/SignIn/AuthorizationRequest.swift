import Crypto
import Foundation
import Loopback

/// One authorization request (RFC 6749 §4.1.1 with PKCE, RFC 7636 §4.3): what the browser is
/// sent to, and everything needed to check the redirect that comes back.
///
/// Made fresh for every attempt: a new PKCE pair, `state` and `nonce` from the injected random
/// source. `description` never shows the verifier.
public struct AuthorizationRequest: Sendable, CustomStringConvertible {
  /// The provider's authorization endpoint (`authorization_endpoint`, RFC 6749 §3.1).
  public let authorizationEndpoint: URL
  /// `client_id` (RFC 6749 §2.2).
  public let clientID: String
  /// `redirect_uri` (RFC 6749 §3.1.2): `http://127.0.0.1:PORT/PATH` (RFC 8252 §7.3).
  public let redirectURI: String
  /// `scope` (RFC 6749 §3.3), space-separated on the wire; not sent when empty.
  public let scopes: [String]
  /// `state` (RFC 6749 §4.1.1, §10.12): 256 random bits, base64url.
  public let state: String
  /// `nonce` (OIDC Core §3.1.2.1): 256 random bits, base64url; sent when `scopes` contains
  /// `openid`, kept for id_token validation.
  public let nonce: String?
  /// The PKCE pair; only its challenge travels in the URL (RFC 7636 §4.3).
  let pkce: PKCEPair
  /// The issuer an `iss` in the response must equal (RFC 9207 §2.4), when known.
  public let expectedIssuer: String?
  /// Whether a response without `iss` is refused (RFC 9207 §3).
  public let requiresIssuer: Bool
  /// Every parameter of the request, in order: the standard ones (`prompt=consent` among them
  /// when `offline_access` is asked of an OpenID provider whose file sets no `prompt`, OIDC
  /// Core §11), then the provider's extras. Sent in `url`'s query, or pushed (RFC 9126).
  public let parameters: [FormEncoding.Pair]
  /// What a push sends (RFC 9126 §2.1): `parameters` without the per-request extras
  /// (`extra_request_params`), which the push carries where the provider file says.
  let pushedParameters: [FormEncoding.Pair]
  /// The per-request extras every URL to the provider carries (`extra_request_params`), but
  /// none named like a parameter that must not be in a pushed request's URL.
  private let frontChannelExtras: [String: String]
  /// The reference a PAR endpoint gave for this request (`request_uri`, RFC 9126 §2.2); nil
  /// while it is not pushed.
  public private(set) var requestURI: String?
  /// Until when `requestURI` may be used (`expires_in` after the push answered, §2.2).
  public private(set) var requestURIExpiresAt: Date?

  /// `code_challenge` (RFC 7636 §4.2).
  public var codeChallenge: String { pkce.challenge }
  /// `code_challenge_method`, always `S256` (RFC 7636 §4.3).
  public var codeChallengeMethod: String { pkce.method }

  /// The URL to open in the browser: the authorization endpoint with every parameter, or,
  /// once pushed, with `client_id` and `request_uri` (RFC 9126 §4), plus `response_type`,
  /// `scope` and `redirect_uri` for an OpenID provider (OpenID Connect Core §6.2 expects the
  /// first two beside a request reference, and some servers refuse a request without all
  /// three), and the per-request extras; never `state`, `code_challenge` or `nonce`.
  public var url: URL {
    guard let requestURI else { return authorizationEndpoint.appendingQuery(parameters) }
    var reference: [FormEncoding.Pair] = [("client_id", clientID)]
    if scopes.contains("openid") {
      reference =
        [("response_type", "code")] + reference + [
          ("redirect_uri", redirectURI), ("scope", scopes.joined(separator: " ")),
        ]
    }
    reference.append(("request_uri", requestURI))
    let taken = Set(reference.map(\.name))
    let extras = frontChannelExtras.filter { !taken.contains($0.key) }
    return authorizationEndpoint.appendingQuery(
      reference + extras.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) })
  }

  /// Names that never go in a pushed request's URL, even as a provider file's extra.
  static let pushedOnlyNames: Set<String> = [
    "state", "nonce", "code_challenge", "code_challenge_method", "request", "request_uri",
  ]

  /// This request with the reference a PAR endpoint gave for it, usable until `expires_in`
  /// after `now`.
  func pushed(_ answer: PushedAuthorizationResponse, at now: Date) -> AuthorizationRequest {
    var pushed = self
    pushed.requestURI = answer.requestURI
    pushed.requestURIExpiresAt = now.addingTimeInterval(answer.expiresIn)
    return pushed
  }

  /// A request for `configuration`, redirecting to `redirectURI`, with fresh secrets from
  /// `random`.
  init(
    configuration: ProviderConfiguration, redirectURI: String, random: some RandomSource
  ) throws(AuthError) {
    authorizationEndpoint = try configuration.endpoint(
      \.authorizationEndpoint, named: "authorization_endpoint")
    clientID = configuration.clientID
    self.redirectURI = redirectURI
    scopes = configuration.scopes
    pkce = PKCEPair.generate(using: random)
    state = Base64URL.encode(random.bytes(count: 32))
    nonce =
      configuration.scopes.contains("openid") ? Base64URL.encode(random.bytes(count: 32)) : nil
    expectedIssuer = configuration.issuer
    requiresIssuer = configuration.requiresIssuerInAuthorizationResponse

    var standard: [FormEncoding.Pair] = [
      ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI),
    ]
    if !scopes.isEmpty {
      standard.append(("scope", scopes.joined(separator: " ")))
    }
    standard += [
      ("state", state), ("code_challenge", pkce.challenge),
      ("code_challenge_method", pkce.method),
    ]
    if let nonce {
      standard.append(("nonce", nonce))
    }
    let extras = configuration.extraRequestParameters.merging(
      configuration.extraAuthorizeParameters
    ) { _, authorizeOnly in authorizeOnly }
    if Self.asksOfflineAccess(scopes), extras["prompt"] == nil {
      // OIDC Core §11: a server may grant offline access only with `prompt=consent` (or other
      // conditions of its own), and a strict one answers the request with an error page and
      // no redirect otherwise; the provider file's own `prompt` wins.
      standard.append(("prompt", "consent"))
    }
    parameters = configuration.withExtraParameters(standard, extras: extras)
    pushedParameters = configuration.withExtraParameters(
      standard, extras: configuration.extraAuthorizeParameters)
    frontChannelExtras = configuration.extraRequestParameters.filter {
      !Self.pushedOnlyNames.contains($0.key)
    }
  }

  /// Checks a redirect against this request and, when it is good, hands out the one grant
  /// that may be exchanged.
  ///
  /// The order matters: `state` first (RFC 6749 §10.12: a response for another request is
  /// discarded whatever it says, so a forged `error=` cannot end this attempt either), then
  /// `iss` (RFC 9207 §2.4, before the error or code is acted on), then `error`, then `code`.
  func validate(_ response: AuthorizationResponse) throws(AuthError) -> AuthorizationGrant {
    guard let received = response.state,
      ConstantTime.equals(Array(received.utf8), Array(state.utf8))
    else { throw .stateMismatch }
    var issuerMissing = false
    if let expectedIssuer {
      if let issuer = response.issuer {
        guard issuer == expectedIssuer else {
          throw .issuerMismatch(expected: expectedIssuer, received: issuer)
        }
      } else if requiresIssuer {
        // A widely used server leaves `iss` out of the redirect that says the person
        // declined: the error it names still ends the attempt (it carries no code to
        // exchange), with a note; a code without the promised `iss` is refused below.
        guard response.error != nil else {
          throw .issuerMismatch(expected: expectedIssuer, received: nil)
        }
        issuerMissing = true
      }
    }
    if let error = response.error {
      throw error.code == .accessDenied
        ? .accessDenied(description: error.errorDescription, issuerMissing: issuerMissing)
        : .authorizationFailed(error, issuerMissing: issuerMissing)
    }
    guard let code = response.code, !code.isEmpty else {
      throw .malformedRedirect("it has neither a code nor an error")
    }
    return AuthorizationGrant(code: code, codeVerifier: pkce.verifier, redirectURI: redirectURI)
  }

  /// True for an OpenID request (`openid`) that asks for `offline_access` (OIDC Core §11).
  static func asksOfflineAccess(_ scopes: [String]) -> Bool {
    scopes.contains("openid") && scopes.contains("offline_access")
  }

  /// Endpoint, client, redirect URI and scopes, and whether it was pushed; the verifier,
  /// state, nonce and request reference are left out.
  public var description: String {
    "AuthorizationRequest(\(authorizationEndpoint.absoluteString), client_id: \(clientID), "
      + "redirect_uri: \(redirectURI), scope: \(scopes.joined(separator: " "))"
      + (requestURI == nil ? ")" : ", pushed)")
  }
}

/// An authorization code that passed validation, with the verifier and redirect URI of its
/// request: the only thing `ProviderClient.exchange` accepts.
///
/// Non-copyable and created only by `AuthorizationRequest.validate`, so each validated code
/// can be consumed by exactly one exchange.
struct AuthorizationGrant: ~Copyable, Sendable {
  /// `code` (RFC 6749 §4.1.2).
  let code: String
  /// `code_verifier` (RFC 7636 §4.5).
  let codeVerifier: String
  /// `redirect_uri`, identical to the request's (RFC 6749 §4.1.3).
  let redirectURI: String
}
