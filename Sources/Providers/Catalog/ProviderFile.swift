import AuthCore
import Foundation

/// One provider file (or built-in preset) as written: every field optional, because a user file
/// may override just a few fields of a preset (`"preset": "simkl"`).
///
/// Field names are those of DESIGN.md "Configuration", which follow the RFC 8414 / OpenID
/// Connect Discovery metadata names, so a discovery document and a hand-written file read the
/// same way.
public struct ProviderFile: Sendable, Equatable {
  public var id: ProviderID?
  public var name: String?
  /// The preset this file builds on (`preset`).
  public var preset: String?
  public var issuer: String?
  /// Fields of `issuer` that each id_token fills from its own claims
  /// (`id_token_issuer_fields`): `{"tenant": "tid"}` means a token's `iss` is `issuer` with
  /// `{tenant}` replaced by the token's `tid`, as Microsoft's multi-tenant endpoints issue.
  public var idTokenIssuerFields: [String: String]?
  /// The provider's names for standard OAuth error codes in token answers (`error_aliases`).
  public var errorAliases: [String: String]?
  /// Named values the issuer and endpoints use as `{name}` (`fields`), such as a tenant.
  public var fields: [String: String]?
  public var clientID: String?
  /// An installed application's client secret that is no secret (`client_secret`): accepted
  /// only when the merged file says `client_secret_required` (Google), refused otherwise.
  public var clientSecret: ClientSecret?
  /// The provider's token endpoint wants the installed application's (non-confidential)
  /// client secret even with PKCE (`client_secret_required`, Google's presets).
  public var clientSecretRequired: Bool?
  public var flows: [SignInFlow]?
  public var scopes: [String]?
  /// The endpoints the file sets (`authorization_endpoint`, `token_endpoint`, … under their
  /// metadata names); discovery fills the others when the file has an `issuer`.
  public var endpoints: [ProviderEndpoint: URL] = [:]
  public var redirectPort: UInt16?
  public var redirectPath: String?
  public var tokenRequestEncoding: TokenRequestEncoding?
  public var loginTimeout: TimeInterval?
  public var extraAuthorizeParameters: [String: String]?
  public var extraRequestParameters: [String: String]?
  public var extraRequestParametersLocation: ParameterLocation?
  public var userAgent: String?
  public var issuerInAuthorizationResponse: Bool?
  /// False turns OpenID Connect discovery off for an issuer (`discovery`).
  public var usesDiscovery: Bool?
  /// Where an RP-initiated logout returns the browser, when registered
  /// (`post_logout_redirect_uri`).
  public var postLogoutRedirectURI: URL?
  /// True when the registration accepts the sign-in redirect URI as a post-logout one
  /// (`post_logout_uses_redirect_uri`).
  public var postLogoutUsesRedirectURI: Bool?
  /// How the account's label is found after a sign-in (`identity`).
  public var identity: IdentityConfiguration?
  /// Where a user withdraws an application's access at the provider, for providers that
  /// cannot revoke tokens through an endpoint (`access_settings_url`; Simkl's Connected Apps).
  public var accessSettingsURL: String?
  /// Where a developer registers an application to get a `client_id` (`registration_url`).
  public var registrationURL: String?
  /// What to register there, for example the redirect URI (`registration_note`).
  public var registrationNote: String?
  /// The refresh grant needs the client secret, which authtui does not have, so no refresh
  /// token is kept (`refresh_requires_client_secret`).
  public var refreshRequiresClientSecret: Bool?
  /// Seconds a refresh token lives when the token answer does not say
  /// (`refresh_token_lifetime`; 604800 for a Google app in "Testing"); 0 says it has no known
  /// end, over a preset's value.
  public var refreshTokenLifetime: Int?
  /// The kind of application to register, as the provider names it (`application_type`).
  public var applicationType: String?
  /// What the provider's token answers put between granted scopes instead of RFC 6749's space
  /// (`scope_separator`; `","` for GitHub).
  public var scopeSeparator: String?
  /// Where the dynamic registration of `client_id` is managed (`registration_client_uri`,
  /// RFC 7592 §3), written by `authtui providers add`: `providers remove` deletes the
  /// registration there.
  public var registrationClientURI: URL?
  /// The bearer token for that management (`registration_access_token`, RFC 7592 §3): a
  /// secret, kept only in this 0600 file and never printed.
  public var registrationAccessToken: RegistrationAccessToken?
  /// Whether authorization requests are pushed first (`par`, RFC 9126): `auto` (the default),
  /// `required` or `off`.
  public var pushedAuthorization: ProtocolMode?
  /// Whether token requests carry DPoP proofs (`dpop`, RFC 9449): `auto` (the default),
  /// `required` or `off`.
  public var dpop: ProtocolMode?

  public init() {}

  /// This file's fields laid over `base`: set fields win; parameter maps and the endpoints
  /// merge key by key.
  public func overriding(_ base: ProviderFile) -> ProviderFile {
    var merged = self
    func inherited<Value>(_ field: WritableKeyPath<ProviderFile, Value?>) -> (inout ProviderFile)
      -> Void
    {
      { if $0[keyPath: field] == nil { $0[keyPath: field] = base[keyPath: field] } }
    }
    let wholeFields = [
      inherited(\.id), inherited(\.name), inherited(\.preset), inherited(\.issuer),
      inherited(\.idTokenIssuerFields), inherited(\.clientID), inherited(\.clientSecret),
      inherited(\.clientSecretRequired), inherited(\.flows), inherited(\.scopes),
      inherited(\.redirectPort), inherited(\.redirectPath),
      inherited(\.tokenRequestEncoding), inherited(\.loginTimeout),
      inherited(\.extraRequestParametersLocation), inherited(\.userAgent),
      inherited(\.issuerInAuthorizationResponse), inherited(\.usesDiscovery),
      inherited(\.postLogoutRedirectURI), inherited(\.postLogoutUsesRedirectURI),
      inherited(\.identity), inherited(\.accessSettingsURL), inherited(\.registrationURL),
      inherited(\.registrationNote), inherited(\.refreshRequiresClientSecret),
      inherited(\.applicationType), inherited(\.refreshTokenLifetime), inherited(\.scopeSeparator),
      inherited(\.registrationClientURI), inherited(\.registrationAccessToken),
      inherited(\.pushedAuthorization), inherited(\.dpop),
    ]
    for inherit in wholeFields { inherit(&merged) }
    let parameterMaps = [
      \ProviderFile.errorAliases, \.fields, \.extraAuthorizeParameters, \.extraRequestParameters,
    ]
    for map in parameterMaps {
      merged[keyPath: map] = Self.merge(base[keyPath: map], self[keyPath: map])
    }
    merged.endpoints = base.endpoints.merging(endpoints) { _, own in own }
    return merged
  }

  private static func merge(_ base: [String: String]?, _ top: [String: String]?) -> [String:
    String]?
  {
    guard let top else { return base }
    guard let base else { return top }
    return base.merging(top) { _, new in new }
  }
}
