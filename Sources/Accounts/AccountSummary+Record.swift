import Vault

extension AccountSummary {
  /// What the UI shows of a vault account: its token facts, never a token. A record whose
  /// provider id is no id is damaged (`AccountRecord.accountName`). A DPoP-bound one carries
  /// the thumbprint stored beside its key: no private key is opened.
  public init(_ record: AccountRecord, providerName: String? = nil, isDefault: Bool = false)
    throws(AccountsError)
  {
    self.init(
      record, name: try record.accountName, providerName: providerName, isDefault: isDefault)
  }

  /// `init(_:providerName:isDefault:)` of a record whose `accountName` is `name`, already
  /// read.
  public init(
    _ record: AccountRecord, name: AccountName, providerName: String? = nil,
    isDefault: Bool = false
  ) {
    // Each of the record's properties read once: a read of `tokens` across the module
    // boundary copies the whole token set (a retain for each string of it).
    let tokens = record.tokens
    let identity = record.identity
    self.init(
      name: name, providerName: providerName, hasAccessToken: tokens.accessToken != nil,
      needsSignIn: record.needsSignIn, expiresAt: tokens.expiresAt,
      obtainedAt: tokens.obtainedAt, scopes: tokens.scopes,
      tokenType: tokens.tokenType, refreshable: tokens.refreshToken != nil,
      identity: identity["email"] ?? identity["name"] ?? record.subject,
      isDefault: isDefault, tenant: identity["tenant"],
      refreshValidity: tokens.refreshValidity, isDPoPBound: tokens.isDPoPBound,
      dpopThumbprint: record.dpopThumbprint)
  }
}
