/// One account as the vault holds it, decrypted.
///
/// The fields live in one shared, immutable box, so that a copy of a record (a listing of
/// thousands brought up to date keeps most of them) costs one reference count, not one for
/// each of its strings and tokens. The fields that hold references are read in place
/// (`_read`), so `record.tokens.expiresAt` does not copy the whole token set out of the box.
public struct AccountRecord: Sendable, Equatable, Identifiable {
  /// The row id.
  public var id: AccountID { storage.fields.id }
  /// Bumped by every write to the account; two reads with the same version saw the same data.
  public var version: Int64 { storage.fields.version }
  /// The provider's id in the catalog (`simkl`).
  public var providerID: String {
    _read { yield storage.fields.providerID }
  }
  /// The user's name for the account, unique per provider (`alice`).
  public var label: String {
    _read { yield storage.fields.label }
  }
  /// The provider's stable user id (OIDC `sub`), when known.
  public var subject: String? {
    _read { yield storage.fields.subject }
  }
  /// Free-form identity fields from the provider (`username`, `email`, …).
  public var identity: [String: String] {
    _read { yield storage.fields.identity }
  }
  /// The current tokens; all nil when `needsSignIn`.
  public var tokens: TokenSet {
    _read { yield storage.fields.tokens }
  }
  /// True after the provider refused the refresh token (`invalid_grant`) or a sign-out left the
  /// account in place: only a new sign-in brings tokens back.
  public var needsSignIn: Bool { storage.fields.needsSignIn }
  /// The RFC 7638 thumbprint (SHA-256, base64url) of the DPoP key pair the account holds: the
  /// `jkt` its tokens are bound to (RFC 9449 §6.1). Nil when it holds no key, or when the
  /// thumbprint's cell does not open (the key itself is then reported damaged where it is
  /// used, `Vault.dpopKey(of:)`). Read from its own sealed cell: no private key is opened.
  public var dpopThumbprint: String? {
    _read { yield storage.fields.dpopThumbprint }
  }

  private let storage: Storage

  /// A record as the vault returns it (for tests and previews of code that consumes records).
  public init(
    id: AccountID, version: Int64, providerID: String, label: String, subject: String?,
    identity: [String: String], tokens: TokenSet, needsSignIn: Bool,
    dpopThumbprint: String? = nil
  ) {
    storage = Storage(
      Fields(
        id: id, version: version, providerID: providerID, label: label, subject: subject,
        identity: identity, tokens: tokens, needsSignIn: needsSignIn,
        dpopThumbprint: dpopThumbprint))
  }

  /// The same record holding the key of thumbprint `thumbprint` (nil: none).
  func holdingKey(ofThumbprint thumbprint: String?) -> AccountRecord {
    AccountRecord(
      id: id, version: version, providerID: providerID, label: label, subject: subject,
      identity: identity, tokens: tokens, needsSignIn: needsSignIn, dpopThumbprint: thumbprint)
  }

  public static func == (lhs: AccountRecord, rhs: AccountRecord) -> Bool {
    lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
  }

  /// Every field.
  private struct Fields: Equatable, Sendable {
    let id: AccountID
    let version: Int64
    let providerID: String
    let label: String
    let subject: String?
    let identity: [String: String]
    let tokens: TokenSet
    let needsSignIn: Bool
    let dpopThumbprint: String?
  }

  /// The box, immutable.
  private final class Storage: Sendable {
    let fields: Fields

    init(_ fields: Fields) {
      self.fields = fields
    }
  }
}

extension AccountRecord: CustomReflectable {
  /// The fields, as a record printed or dumped showed them before they moved into the box.
  public var customMirror: Mirror {
    Mirror(self, children: Mirror(reflecting: storage.fields).children, displayStyle: .struct)
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

/// An account whose cells could not be read; named by id, because its name is sealed in cells
/// that may be the very ones that failed.
public struct DamagedAccount: Sendable, Equatable {
  /// The row id (delete it with `Vault.delete`, which opens no cell).
  public let id: AccountID
  /// What failed.
  public let damage: AccountDamage
  /// The provider id, when its own cell still opens; nil when that cell is damaged too.
  public let providerID: String?
  /// The label, when its own cell still opens; nil when that cell is damaged too.
  public let label: String?

  /// Reports account `id` as damaged by `damage`, with the parts of its name that still open.
  public init(
    id: AccountID, damage: AccountDamage, providerID: String? = nil, label: String? = nil
  ) {
    self.id = id
    self.damage = damage
    self.providerID = providerID
    self.label = label
  }

  /// `PROVIDER/LABEL` when both cells open. AES-GCM authenticated them for this row, so this is
  /// the row's name even when its lookup index or its other cells are damaged.
  public var name: String? {
    guard let providerID, let label else { return nil }
    return providerID + "/" + label
  }

  /// How messages name it: `#2 (simkl/alice)`, or `#2` when its name does not open.
  public var reference: String {
    name.map { "\(id) (\($0))" } ?? id.description
  }
}

/// One account row, read as far as its cells open: what removal and sign-in look at, since they
/// must reach a damaged account too.
public enum StoredAccount: Sendable, Equatable {
  /// Every cell opened.
  case readable(AccountRecord)
  /// A cell failed; the row can still be deleted by id.
  case damaged(DamagedAccount)

  /// The row id.
  public var id: AccountID {
    switch self {
    case .readable(let account): return account.id
    case .damaged(let damaged): return damaged.id
    }
  }

  /// The provider id, when it can be read.
  public var providerID: String? {
    switch self {
    case .readable(let account): return account.providerID
    case .damaged(let damaged): return damaged.providerID
    }
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
  /// The accounts marked as their provider's default (`authtui default`), at most one per
  /// provider.
  public let defaults: Set<AccountID>

  /// A listing of readable and damaged accounts, and the default ones among them.
  public init(
    accounts: [AccountRecord], damaged: [DamagedAccount], defaults: Set<AccountID> = []
  ) {
    self.accounts = accounts
    self.damaged = damaged
    self.defaults = defaults
  }
}
