/// One account as the vault holds it, decrypted.
public struct AccountRecord: Sendable, Equatable, Identifiable {
  /// The row id.
  public let id: AccountID
  /// Bumped by every write to the account; two reads with the same version saw the same data.
  public let version: Int64
  /// The provider's id in the catalog (`simkl`).
  public let providerID: String
  /// The user's name for the account, unique per provider (`alice`).
  public let label: String
  /// The provider's stable user id (OIDC `sub`), when known.
  public let subject: String?
  /// Free-form identity fields from the provider (`username`, `email`, …).
  public let identity: [String: String]
  /// The current tokens; all nil when `needsSignIn`.
  public let tokens: TokenSet
  /// True after the provider refused the refresh token (`invalid_grant`) or a sign-out left the
  /// account in place: only a new sign-in brings tokens back.
  public let needsSignIn: Bool

  /// `PROVIDER/LABEL`, the name the command line uses.
  public var name: String { providerID + "/" + label }

  /// A record as the vault returns it (for tests and previews of code that consumes records).
  public init(
    id: AccountID, version: Int64, providerID: String, label: String, subject: String?,
    identity: [String: String], tokens: TokenSet, needsSignIn: Bool
  ) {
    self.id = id
    self.version = version
    self.providerID = providerID
    self.label = label
    self.subject = subject
    self.identity = identity
    self.tokens = tokens
    self.needsSignIn = needsSignIn
  }
}

/// An account to add: everything but the id and version, which the vault assigns.
public struct NewAccount: Sendable, Equatable {
  /// The provider's id in the catalog.
  public var providerID: String
  /// The user's name for the account, unique per provider.
  public var label: String
  /// The provider's stable user id, when known.
  public var subject: String?
  /// Free-form identity fields from the provider.
  public var identity: [String: String]
  /// The tokens the sign-in produced.
  public var tokens: TokenSet

  /// Describes an account to insert.
  public init(
    providerID: String, label: String, subject: String? = nil, identity: [String: String] = [:],
    tokens: TokenSet
  ) {
    self.providerID = providerID
    self.label = label
    self.subject = subject
    self.identity = identity
    self.tokens = tokens
  }
}

/// An account whose cells could not be read; named by id alone, because its name is sealed in
/// the very cells that failed.
public struct DamagedAccount: Sendable, Equatable {
  /// The row id (delete it with `Vault.delete`).
  public let id: AccountID
  /// What failed.
  public let damage: AccountDamage

  /// Reports account `id` as damaged by `damage`.
  public init(id: AccountID, damage: AccountDamage) {
    self.id = id
    self.damage = damage
  }
}

/// Every account of the vault: those that read, and those that did not.
///
/// One damaged row never hides the others: it is reported here and the rest are listed.
public struct AccountListing: Sendable, Equatable {
  /// Readable accounts, ordered by provider id, then label.
  public let accounts: [AccountRecord]
  /// Damaged accounts, ordered by id.
  public let damaged: [DamagedAccount]

  /// A listing of readable and damaged accounts.
  public init(accounts: [AccountRecord], damaged: [DamagedAccount]) {
    self.accounts = accounts
    self.damaged = damaged
  }
}
