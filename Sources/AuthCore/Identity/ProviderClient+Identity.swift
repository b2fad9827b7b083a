import Foundation
import JSON

extension ProviderClient {
  /// Identifies the account behind freshly issued `tokens` as `configuration.effectiveIdentity`
  /// says; nil when the provider has no identity step (the user names the account).
  ///
  /// `idToken` is the sign-in's validated id_token, if any: the `id_token` source reads it, and
  /// the `userinfo` source checks its `sub` against it (OIDC Core §5.3.2). Build this client
  /// from `OIDCProvider.configuration()` so a discovered `userinfo_endpoint` is known.
  ///
  /// An endpoint answering 401 means the new token is unusable (`IdentityError.tokenUnusable`),
  /// 403 that it lacks a scope (`IdentityError.insufficientScope`, naming the scope to add);
  /// either way the sign-in has failed.
  public func identity(for tokens: TokenResponse, idToken: IDToken?) async throws(AuthError)
    -> AccountIdentity?
  {
    guard let settings = configuration.effectiveIdentity else { return nil }
    let document: [String: JSONValue]
    switch settings.source {
    case .endpoint(let url):
      document = try await accountDocument(
        url, accessToken: tokens.accessToken, dpopBound: tokens.isDPoPBound,
        scopeHint: settings.forbiddenScopeHint)
    case .tokenResponse:
      document = tokens.additionalParameters
    case .userinfo:
      document = try await userinfo(
        accessToken: tokens.accessToken, dpopBound: tokens.isDPoPBound,
        expectedSubject: idToken?.subject)
    case .idToken:
      guard let idToken else { throw .identityFailed(.noIDToken) }
      document = idToken.claims
    }
    do {
      return try AccountIdentity(document: document, settings: settings)
    } catch {
      throw .identityFailed(error)
    }
  }

  /// The claims of the userinfo endpoint (OIDC Core §5.3): `GET userinfo_endpoint` with the
  /// access token as a Bearer token, or, when it is DPoP-bound (`dpopBound`), as a DPoP token
  /// with a proof of the client's key (RFC 9449 §7). `sub` must be present and, when
  /// `expectedSubject` (the id_token's `sub`) is given, equal to it (§5.3.2); otherwise the
  /// answer is refused.
  public func userinfo(accessToken: String, dpopBound: Bool = false, expectedSubject: String?)
    async throws(AuthError) -> [String: JSONValue]
  {
    let endpoint = try configuration.endpoint(\.userinfoEndpoint, named: "userinfo_endpoint")
    let claims = try await accountDocument(
      endpoint, accessToken: accessToken, dpopBound: dpopBound, scopeHint: nil)
    guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else {
      throw .identityFailed(.userinfoWithoutSubject)
    }
    if let expectedSubject, subject != expectedSubject {
      throw .identityFailed(.subjectMismatch)
    }
    return claims
  }

  /// `GET`s a Bearer-protected JSON object describing the account, with the provider's
  /// per-request parameters; a DPoP-bound token (`dpopBound`) goes as `Authorization: DPoP`
  /// with a proof (RFC 9449 §7.1), which needs the client's key. 401 or `invalid_token`: the
  /// token is unusable; 403 or `insufficient_scope`: a scope is missing, named by the
  /// `WWW-Authenticate` header's `scope` (RFC 6750 §3) when present, else by `scopeHint`.
  func accountDocument(_ url: URL, accessToken: String, dpopBound: Bool, scopeHint: String?)
    async throws(AuthError) -> [String: JSONValue]
  {
    guard ProviderConfiguration.isAllowedEndpoint(url) else {
      throw .insecureEndpoint("identity endpoint", provider: configuration.name)
    }
    let response: TransportResponse
    if dpopBound {
      guard dpopKey != nil else { throw .dpopKeyMissing(configuration.name) }
      var request = getRequest(url)
      request.headers.append(Header("Authorization", "DPoP \(accessToken)"))
      response = try await sendProven(request, accessToken: accessToken)
    } else {
      response = try await send(getRequest(url, bearerToken: accessToken))
    }
    let challenge = response.headers["www-authenticate"].flatMap(BearerChallenge.init(header:))
    let missingScope = IdentityError.insufficientScope(
      scopeHint: challenge?.scope ?? scopeHint)
    switch response.status {
    case 401: throw .identityFailed(.tokenUnusable)
    case 403: throw .identityFailed(missingScope)
    default: break
    }
    switch try Self.read(response) {
    case .json(let json):
      return json
    case .error(let error) where error.code.rawValue == "invalid_token":
      throw .identityFailed(.tokenUnusable)
    case .error(let error) where error.code.rawValue == "insufficient_scope":
      throw .identityFailed(missingScope)
    case .error:
      throw .unexpectedStatus(response.status)
    }
  }
}
