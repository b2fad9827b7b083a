import Vault

extension AccountSummary {
  /// What the UI shows of a vault account: its token facts, never a token. A record whose
  /// provider id is no id is damaged (`AccountRecord.accountName`). A DPoP-bound one carries
  /// the thumbprint stored beside its key: no private key is opened.
  public init(_ record: AccountRecord, providerName: String? = nil, isDefault: Bool = false)
    throws(AccountsError)
  {
    self.init(
      name: try record.accountName,
      providerName: providerName, hasAccessToken: record.tokens.accessToken != nil,
      needsSignIn: record.needsSignIn, expiresAt: record.tokens.expiresAt,
      obtainedAt: record.tokens.obtainedAt, scopes: record.tokens.scopes,
      tokenType: record.tokens.tokenType, refreshable: record.tokens.refreshToken != nil,
      identity: record.identity["email"] ?? record.identity["name"] ?? record.subject,
      isDefault: isDefault, tenant: record.identity["tenant"],
      refreshValidity: record.tokens.refreshValidity, isDPoPBound: record.tokens.isDPoPBound,
      dpopThumbprint: record.dpopThumbprint)
  }
}
