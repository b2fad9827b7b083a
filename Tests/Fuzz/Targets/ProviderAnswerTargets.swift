import Accounts
import AuthCore
import Foundation
import JSON
import Vault

extension FuzzTargets {
  /// A token endpoint's answer (RFC 6749 §5.1, §5.2), as the client reads its body.
  ///
  /// An accepted answer has an access token; its description never shows a token, and merged
  /// into stored tokens it keeps what it does not replace.
  static let tokenResponse = FuzzTarget.readingJSONObject(
    name: "token-response", summary: "TokenResponse: token endpoint answers"
  ) { json in
    guard let response = try? TokenResponse(json: json, receivedAt: Date(timeIntervalSince1970: 0))
    else { return }
    require(!response.accessToken.isEmpty, "accepted without an access token")
    // The description must not depend on the tokens' values: the same answer with other
    // tokens describes itself the same way.
    let redacted = TokenResponse(
      accessToken: "A", tokenType: response.tokenType, expiresIn: response.expiresIn,
      refreshToken: response.refreshToken.map { _ in "R" },
      refreshTokenExpiresIn: response.refreshTokenExpiresIn,
      refreshTokenLifetime: response.refreshTokenLifetime, scope: response.scope,
      idToken: response.idToken.map { _ in "I" },
      additionalParameters: response.additionalParameters, receivedAt: response.receivedAt)
    require(response.description == redacted.description, "the description shows a token")
    if let expiresIn = response.expiresIn { require(expiresIn >= 0, "negative expires_in") }
    if let lifetime = response.refreshTokenExpiresIn {
      require(lifetime > 0, "a refresh_token_expires_in of 0 or less kept")
      require(lifetime.isFinite && lifetime <= 315_360_000, "an endless refresh lifetime kept")
      require(response.refreshToken != nil, "a refresh lifetime without a refresh token")
    }
    // Merged into stored tokens (the one rule sign-in and refresh share), nothing held is lost
    // that the answer does not replace.
    let stored = TokenSet(
      accessToken: "previous-access", refreshToken: "previous-refresh", idToken: "previous-id",
      scopes: ["previous"], obtainedAt: Date(timeIntervalSince1970: 0))
    let merged = stored.updated(with: response)
    require(merged.accessToken == response.accessToken, "the merge kept the old access token")
    require(
      merged.refreshToken == (response.refreshToken ?? "previous-refresh"),
      "the merge lost or invented a refresh token")
    require(
      merged.idToken == (response.idToken ?? "previous-id"),
      "the merge lost or invented an id_token")
    require(!merged.scopes.isEmpty, "the merge lost the scopes")
    // A new refresh token lives as long as its answer says, from the answer; a kept one keeps
    // the validity stored with it (none here) unless the answer states its lifetime anew.
    let rotated = response.refreshToken.map { $0 != "previous-refresh" } ?? false
    let expected: DateInterval?
    if rotated {
      expected = response.refreshTokenExpiresAt.map {
        DateInterval(start: response.receivedAt, end: max($0, response.receivedAt))
      }
    } else {
      expected = response.refreshTokenExpiresIn.map {
        DateInterval(start: response.receivedAt, end: response.receivedAt.addingTimeInterval($0))
      }
    }
    require(merged.refreshValidity == expected, "the merge got the refresh token's validity wrong")
    _ = response.scopes
  }

  /// A device authorization answer (RFC 8628 §3.2) and a PIN flow's start answer, which share
  /// a reader.
  ///
  /// An accepted answer has a user code, an absolute verification URI, a positive lifetime and
  /// a polling interval of at least one second.
  static let deviceAuthorization = FuzzTarget.readingJSONObject(
    name: "device-authorization", summary: "DeviceAuthorizationResponse: device and PIN answers"
  ) { json in
    guard let response = try? DeviceAuthorizationResponse(json: json) else { return }
    require(!response.userCode.isEmpty, "accepted without a user code")
    require(response.verificationURI.scheme != nil, "a relative verification URI")
    require(response.expiresIn > 0, "expires_in \(response.expiresIn)")
    require(response.interval >= 1, "interval \(response.interval)")
    _ = response.description
  }

  /// An OpenID discovery document (OIDC Discovery §3).
  ///
  /// An accepted document names the issuer asked for, and only https (or loopback http)
  /// endpoints.
  static let discovery = FuzzTarget.readingJSONObject(
    name: "discovery", summary: "OIDCProviderMetadata: openid-configuration documents"
  ) { json in
    let issuer = json["issuer"]?.stringValue ?? "https://issuer.example"
    for overridden in [[], ["jwks_uri"]] as [Set<String>] {
      guard
        let metadata = try? OIDCProviderMetadata(
          json: json, expectedIssuer: issuer, overridden: overridden)
      else { continue }
      require(metadata.issuer == issuer, "accepted another issuer")
      for name in ProviderEndpoint.published.map(\.rawValue) {
        guard let url = metadata.endpoint(named: name) else { continue }
        require(ProviderConfiguration.isAllowedEndpoint(url), "accepted \(name) \(url)")
      }
    }
  }

  /// A dynamic client registration's answer (RFC 7591 §3.2.1, RFC 7592 §3), which
  /// `providers add --issuer` writes into a provider file.
  ///
  /// An accepted answer has a client id without spaces or control characters, an https (or
  /// loopback http) registration URI, dates in range and scopes without empty or spaced
  /// ones; however it is printed, its secrets never show.
  static let clientRegistration = FuzzTarget.readingJSONObject(
    name: "client-registration", summary: "ClientRegistrationResponse: registration answers"
  ) { json in
    guard let response = try? ClientRegistrationResponse(json: json) else { return }
    require(!response.clientID.isEmpty && response.clientID.count <= 512, "client_id kept")
    require(
      response.clientID.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F },
      "a client_id with spaces or control characters kept")
    if let uri = response.registrationClientURI {
      require(ProviderConfiguration.isAllowedEndpoint(uri), "registration_client_uri \(uri)")
    }
    for date in [response.clientIDIssuedAt, response.clientSecretExpiresAt].compactMap({ $0 }) {
      let seconds = date.timeIntervalSince1970
      require(seconds > 0 && seconds < 1e11, "a date of \(seconds) s kept")
    }
    for scope in response.scopes ?? [] {
      require(!scope.isEmpty && !scope.contains(" "), "scope \"\(scope)\" kept")
    }
    // Printed (a log line, an error's detail), the answer reads the same whatever its
    // secrets are.
    let other = ClientRegistrationResponse(
      clientID: response.clientID, clientSecret: response.clientSecret.map { _ in .init("S") },
      clientIDIssuedAt: response.clientIDIssuedAt,
      clientSecretExpiresAt: response.clientSecretExpiresAt,
      registrationAccessToken: response.registrationAccessToken.map { _ in .init("T") },
      registrationClientURI: response.registrationClientURI,
      redirectURIs: response.redirectURIs, grantTypes: response.grantTypes,
      tokenEndpointAuthMethod: response.tokenEndpointAuthMethod, scopes: response.scopes)
    require(
      String(describing: response) == String(describing: other)
        && String(reflecting: response) == String(reflecting: other),
      "printing the answer shows a secret")
  }
}
