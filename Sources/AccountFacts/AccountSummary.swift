import Foundation

/// The facts of one account that everything above the vault shows or sends: the UI's list and
/// details, `authtui list` and `status`, and the agent's `list` and `status` answers (their
/// JSON forms are in `AccountSummary+Wire.swift`). The vault's own row is `AccountRecord`.
///
/// Never holds a token: a token is read from the vault only to be handed out, and everything
/// else works on these facts about it.
public struct AccountSummary: Sendable, Equatable, Identifiable {
  /// `PROVIDER/LABEL`.
  public var name: AccountName
  /// The provider's display name (`Simkl`, `Work SSO`).
  public var providerName: String
  /// True when the vault holds an access token for the account.
  public var hasAccessToken: Bool
  /// True after the provider refused the refresh token or a sign-out left the account: only a
  /// new sign-in brings tokens back.
  public var needsSignIn: Bool
  /// When the access token expires (`expires_in` added to `obtainedAt`); nil when unknown.
  public var expiresAt: Date?
  /// When the current tokens were received.
  public var obtainedAt: Date?
  /// The granted scopes (`scope`).
  public var scopes: [String]
  /// The token type (`token_type`), usually `Bearer`.
  public var tokenType: String?
  /// True when the account holds a refresh token.
  public var refreshable: Bool
  /// Who the provider says signed in (user name or e-mail), when known.
  public var identity: String?
  /// True when it is its provider's default account, the one a bare PROVIDER names.
  public var isDefault: Bool
  /// What follows the name of a default account, in the UI's list and `authtui list`.
  public static let defaultMark = " (default)"
  /// The tenant the account signed in through (Microsoft's `tid`), when the provider names one.
  public var tenant: String?
  /// From when to when the refresh token works, when that is known (Google's "Testing" apps,
  /// GitHub's expiring user tokens).
  public var refreshValidity: DateInterval?
  /// True when its access token is DPoP-bound (`token_type` `DPoP`, RFC 9449 §5): it works
  /// only with a fresh proof of the account's key, so it is never copied or exported.
  public var isDPoPBound: Bool
  /// The RFC 7638 thumbprint (SHA-256, base64url) of the key its token is bound to (`jkt`,
  /// RFC 9449 §6.1); nil for a Bearer token, or when the vault cannot read it.
  public var dpopThumbprint: String?

  /// Describes an account; every fact but the name is optional. The provider's display name is
  /// its id when none is given.
  public init(
    name: AccountName, providerName: String? = nil, hasAccessToken: Bool = true,
    needsSignIn: Bool = false, expiresAt: Date? = nil, obtainedAt: Date? = nil,
    scopes: [String] = [], tokenType: String? = "Bearer", refreshable: Bool = false,
    identity: String? = nil, isDefault: Bool = false, tenant: String? = nil,
    refreshValidity: DateInterval? = nil, isDPoPBound: Bool = false, dpopThumbprint: String? = nil
  ) {
    self.refreshValidity = refreshValidity
    self.isDPoPBound = isDPoPBound
    self.dpopThumbprint = isDPoPBound ? dpopThumbprint : nil
    self.isDefault = isDefault
    self.tenant = tenant
    self.name = name
    self.providerName = providerName ?? name.provider.rawValue
    self.hasAccessToken = hasAccessToken
    self.needsSignIn = needsSignIn
    self.expiresAt = expiresAt
    self.obtainedAt = obtainedAt
    self.scopes = scopes
    self.tokenType = tokenType
    self.refreshable = refreshable
    self.identity = identity
  }

  public var id: AccountName { name }

  /// True when it holds an access token it may hand out: it has one and needs no new sign-in
  /// (the agent's `usable`).
  public var usable: Bool { hasAccessToken && !needsSignIn }

  /// By when it needs a new sign-in and from when it says so (`RefreshSchedule.signInDeadline`);
  /// nil when it holds no token to lose, or never needs one.
  public var signInDeadline: RefreshSchedule.SignInDeadline? {
    guard !needsSignIn, hasAccessToken else { return nil }
    return RefreshSchedule.signInDeadline(
      refreshable: refreshable, obtainedAt: obtainedAt, expiresAt: expiresAt,
      refreshValidity: refreshValidity)
  }

  /// The status badge at `now`: recomputed on every frame, so it changes as time passes.
  public func status(at now: Date) -> AccountStatus {
    if needsSignIn { return .signInNeeded }
    return AccountStatus.classify(hasAccessToken: hasAccessToken, expiresAt: expiresAt, now: now)
  }
}
