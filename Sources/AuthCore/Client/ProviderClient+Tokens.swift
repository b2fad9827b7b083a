import Foundation
import JSON
import Loopback

extension ProviderClient {
  /// Exchanges an authorization code for tokens (RFC 6749 §4.1.3, RFC 7636 §4.5): `grant_type`,
  /// `code`, `redirect_uri`, `client_id`, `code_verifier`, and never a client secret.
  ///
  /// `grant` is consumed: a code can reach this method once, and only from a validated
  /// redirect, so no code is ever exchanged twice (Simkl burns a code on any attempt).
  func exchange(_ grant: consuming AuthorizationGrant) async throws(AuthError) -> TokenResponse {
    let endpoint = try configuration.endpoint(\.tokenEndpoint, named: "token_endpoint")
    let request = postRequest(
      endpoint,
      parameters: [
        ("grant_type", "authorization_code"), ("code", grant.code),
        ("redirect_uri", grant.redirectURI), ("client_id", configuration.clientID),
        ("code_verifier", grant.codeVerifier),
      ] + configuration.clientSecretParameter, encoding: configuration.tokenRequestEncoding)
    let response = try await sendProven(request, uninterruptibly: true)
    switch try Self.read(response) {
    case .json(let json):
      return try await tokenResponse(json, proofSent: dpopKey != nil)
    case .error(let error):
      throw Self.codeExchangeError(error)
    }
  }

  /// Uses a refresh token (RFC 6749 §6) and returns the provider's answer as it is: with
  /// rotation it carries a new refresh token, without one it has none (the stored tokens keep
  /// theirs: Accounts' `TokenSet.updated(with:)` merges an answer). `invalid_grant` means the
  /// account must sign in again (`AuthError.refreshTokenRejected`); any other failure leaves the
  /// stored tokens as they are; a provider's own name for `invalid_grant` (GitHub's
  /// `bad_refresh_token`) is read through `error_aliases`.
  public func refresh(_ refreshToken: String, scopes: [String]? = nil) async throws(AuthError)
    -> TokenResponse
  {
    let endpoint = try configuration.endpoint(\.tokenEndpoint, named: "token_endpoint")
    var parameters: [FormEncoding.Pair] =
      [
        ("grant_type", "refresh_token"), ("refresh_token", refreshToken),
        ("client_id", configuration.clientID),
      ] + configuration.clientSecretParameter
    if let scopes, !scopes.isEmpty {
      parameters.append(("scope", scopes.joined(separator: " ")))
    }
    let request = postRequest(
      endpoint, parameters: parameters, encoding: configuration.tokenRequestEncoding)
    return try await tokens(from: request) { error in
      let error = configuration.standardized(error)
      return error.code == .invalidGrant
        ? .refreshTokenRejected(description: error.errorDescription)
        : .tokenRequestRejected(error)
    }
  }

  /// What `revoke` did.
  public enum RevocationResult: Sendable, Equatable {
    /// The provider confirmed the revocation (RFC 7009 §2.2).
    case revoked
    /// The provider has no revocation endpoint: the user revokes access in the provider's
    /// account settings (Simkl's Connected Apps).
    case unsupported
  }

  /// Revokes the refresh token, then the access token (RFC 7009 §2.1: `token`,
  /// `token_type_hint`, `client_id`), so a provider that ties access tokens to their refresh
  /// token drops both. Both are tried even when the first fails; the first failure is thrown.
  /// `unsupported_token_type` for the access token is not a failure: the provider revokes only
  /// refresh tokens and the access token simply expires. Nor is `invalid_token` once the
  /// refresh token was revoked: a provider that revokes the whole grant with it (Google)
  /// answers so for the access token that went with it, where RFC 7009 §2.2 would say 200.
  public func revoke(accessToken: String, refreshToken: String?) async throws(AuthError)
    -> RevocationResult
  {
    guard configuration.revocationEndpoint != nil else { return .unsupported }
    let endpoint = try configuration.endpoint(\.revocationEndpoint, named: "revocation_endpoint")
    var failure: AuthError?
    var grantRevoked = false
    if let refreshToken {
      do {
        try await revoke(refreshToken, hint: "refresh_token", at: endpoint)
        grantRevoked = true
      } catch {
        failure = error
      }
    }
    do {
      try await revoke(accessToken, hint: "access_token", at: endpoint)
    } catch .revocationRejected(let error) where error.code == .unsupportedTokenType {
      // Only refresh tokens are revocable here.
    } catch .revocationRejected(let error) where error.code == .invalidToken && grantRevoked {
      // Gone with the grant its refresh token ended.
    } catch {
      failure = failure ?? error
    }
    if let failure { throw failure }
    return .revoked
  }

  private func revoke(_ token: String, hint: String, at endpoint: URL) async throws(AuthError) {
    let request = postRequest(
      endpoint,
      parameters: [
        ("token", token), ("token_type_hint", hint), ("client_id", configuration.clientID),
      ], encoding: .form)
    let response = try await sendProven(request)
    // RFC 7009 §2.2: 200 with any (usually empty) body means revoked, also for unknown tokens.
    if (200..<300).contains(response.status) { return }
    if case .error(let error) = try Self.read(response) {
      throw .revocationRejected(error)
    }
    throw .unexpectedStatus(response.status)
  }

  /// Sends a token request and reads the answer as a `TokenResponse`; an OAuth error becomes
  /// whatever `rejection` makes of it.
  func tokens(
    from request: TransportRequest, rejection: (OAuthError) -> AuthError
  ) async throws(AuthError) -> TokenResponse {
    let response = try await sendProven(request)
    switch try Self.read(response) {
    case .json(let json):
      return try await tokenResponse(json, proofSent: dpopKey != nil)
    case .error(let error):
      throw rejection(error)
    }
  }

  /// A token answer as authtui keeps it: with `refreshRequiresClientSecret`, without its
  /// refresh token, which only a client holding the secret could use. The account is then not
  /// refreshable, and shows and says so (sign in again before the access token expires),
  /// instead of failing at its first refresh. A refresh token the answer gives no lifetime for
  /// gets the provider file's `refresh_token_lifetime`, if any. A `scope` written with the
  /// provider's own `scope_separator` is read as the space-separated list RFC 6749 defines.
  ///
  /// Its `token_type` is kept as it is. A `DPoP` token answering a request that carried no
  /// proof (`proofSent` false) is refused: nobody could use it. A `Bearer` token answering one
  /// that did is accepted as a Bearer token: RFC 9449 §5 lets a server issue tokens that are
  /// not bound, and says so by that `token_type`.
  func tokenResponse(_ json: [String: JSONValue], proofSent: Bool) async throws(AuthError)
    -> TokenResponse
  {
    if !proofSent, json["token_type"]?.stringValue?.lowercased() == "dpop" {
      throw .unexpectedDPoPToken
    }
    var members = json
    if configuration.refreshRequiresClientSecret {
      members["refresh_token"] = nil
    }
    if let separator = configuration.scopeSeparator, case .string(let scope) = members["scope"] {
      members["scope"] = .string(
        scope.components(separatedBy: separator).filter { !$0.isEmpty }.joined(separator: " "))
    }
    return try TokenResponse(
      json: members, receivedAt: await clock.now(),
      refreshTokenLifetime: configuration.refreshTokenLifetime)
  }

  /// Names the code-exchange failures a user can act on: Simkl's `secret_error`, and the
  /// `invalid_grant` texts Hivesigner uses (matched on the text, so any provider saying the
  /// same gets the same help).
  static func codeExchangeError(_ error: OAuthError) -> AuthError {
    if error.code == .secretError {
      return .pkceVerificationFailed(description: error.errorDescription)
    }
    if error.code == .accessDenied {
      return .accessDenied(description: error.errorDescription)
    }
    guard error.code == .invalidGrant, let text = error.errorDescription?.lowercased() else {
      return .tokenRequestRejected(error)
    }
    if text.contains("already used") || text.contains("already been used") {
      return .authorizationCodeUsed
    }
    if text.contains("future") { return .authorizationCodeFromTheFuture }
    if text.contains("expired") { return .authorizationCodeExpired }
    if text.contains("verifier") || text.contains("pkce") || text.contains("challenge") {
      return .pkceVerificationFailed(description: error.errorDescription)
    }
    return .tokenRequestRejected(error)
  }
}
