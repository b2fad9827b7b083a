import Foundation

/// How a provider's account is identified after a sign-in, as data (`identity` in a provider
/// file): which answer to read, and which members of it name the account.
///
/// ```json
/// "identity": { "source": "endpoint", "endpoint": "https://api.simkl.com/users/settings",
///               "label": ["user.name"], "subject": ["account.id"] }
/// "identity": { "source": "token_response", "label": ["username"] }
/// "identity": { "source": "endpoint", "endpoint": "https://api.muhajirstudio.com/api/external/me",
///               "label": ["preferred_username", "email", "name", "sub"], "subject": ["sub"],
///               "forbidden_scope_hint": "openid" }
/// "identity": { "source": "userinfo" }
/// ```
/// Paths are dotted member names (`user.name`; a numeric segment indexes an array); each list is
/// tried in order and the first string or number found is used.
public struct IdentityConfiguration: Sendable, Equatable {
  /// Where the account's description comes from (`source`).
  public enum Source: Sendable, Equatable {
    /// `GET` this URL with the new access token as a Bearer token (RFC 6750 §2.1) and the
    /// provider's per-request parameters (`"source": "endpoint"`, URL in `endpoint`): Simkl
    /// `users/settings`, Hivesigner `/api/me`, Muhajir `/api/external/me`.
    case endpoint(URL)
    /// Members of the token answer beyond RFC 6749's (`"token_response"`): Hivesigner's
    /// `username`.
    case tokenResponse
    /// The OpenID Connect userinfo endpoint (`"userinfo"`, OIDC Core §5.3), its `sub` checked
    /// against the id_token's.
    case userinfo
    /// The validated id_token's claims (`"id_token"`, OIDC Core §2, §5.1).
    case idToken

    /// The source called `name` in a provider file (`endpoint`, `token_response`, `userinfo`,
    /// `id_token`), with `endpoint` the URL an `endpoint` source needs; nil for an unknown
    /// name or an `endpoint` source without a URL.
    public init?(wireName name: String, endpoint: URL? = nil) {
      switch name {
      case "endpoint":
        guard let endpoint else { return nil }
        self = .endpoint(endpoint)
      case "token_response": self = .tokenResponse
      case "userinfo": self = .userinfo
      case "id_token": self = .idToken
      default: return nil
      }
    }

    /// The name of this source in a provider file.
    public var wireName: String {
      switch self {
      case .endpoint: return "endpoint"
      case .tokenResponse: return "token_response"
      case .userinfo: return "userinfo"
      case .idToken: return "id_token"
      }
    }

    /// Every name `init(wireName:endpoint:)` accepts, for validation messages.
    public static let wireNames = ["endpoint", "token_response", "userinfo", "id_token"]
  }

  /// Where to read (`source`, plus `endpoint` for an endpoint source).
  public var source: Source
  /// Paths to the account's label, in order of preference (`label`); when none holds a value,
  /// `subjectPaths` are tried.
  public var labelPaths: [String]
  /// Paths to the provider's stable identifier for the account (`subject`).
  public var subjectPaths: [String]
  /// Paths to an e-mail address to show (`email`).
  public var emailPaths: [String]
  /// Paths to a display name to show (`name`).
  public var namePaths: [String]
  /// Paths to the tenant the account signed in through, to show (`tenant`; Microsoft's
  /// `tid`).
  public var tenantPaths: [String]
  /// The scope to tell the user to add when an endpoint source answers 403 (RFC 6750 §3.1
  /// `insufficient_scope`) (`forbidden_scope_hint`): Muhajir's `/api/external/me` needs
  /// `openid`. A `scope` named in the answer's `WWW-Authenticate` header is preferred.
  public var forbiddenScopeHint: String?

  /// Settings reading `source`.
  public init(
    source: Source, labelPaths: [String], subjectPaths: [String] = [],
    emailPaths: [String] = [], namePaths: [String] = [], forbiddenScopeHint: String? = nil,
    tenantPaths: [String] = []
  ) {
    self.tenantPaths = tenantPaths
    self.source = source
    self.labelPaths = labelPaths
    self.subjectPaths = subjectPaths
    self.emailPaths = emailPaths
    self.namePaths = namePaths
    self.forbiddenScopeHint = forbiddenScopeHint
  }

  /// The OpenID Connect standard claims (OIDC Core §5.1) read from `source`: label from
  /// `preferred_username`, then `email`, then `name`, and only then the opaque `sub` (the
  /// subject, which `AccountIdentity.labelIsSubject` then says); subject `sub`; `email`;
  /// `name`.
  public static func openIDDefault(source: Source) -> IdentityConfiguration {
    IdentityConfiguration(
      source: source, labelPaths: ["preferred_username", "email", "name"],
      subjectPaths: ["sub"], emailPaths: ["email"], namePaths: ["name"])
  }
}

extension ProviderConfiguration {
  /// The identity settings in force: `identity` when set; for a provider that asks for the
  /// `openid` scope, the OpenID defaults read from userinfo (when the configuration, discovered
  /// or not, has a `userinfo_endpoint`) or else from the id_token; nil otherwise (no identity
  /// step: the account is named by the user).
  public var effectiveIdentity: IdentityConfiguration? {
    if let identity { return identity }
    guard scopes.contains("openid") else { return nil }
    return .openIDDefault(source: userinfoEndpoint == nil ? .idToken : .userinfo)
  }
}
