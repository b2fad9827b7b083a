import Crypto
import Foundation

/// Reading and writing accounts. Every method needs the vault unlocked (else `locked`), and every
/// write is one `BEGIN IMMEDIATE` transaction that bumps the account's version.
extension Vault {
  /// Every account, decrypted; accounts whose cells fail to open are listed apart, by id only,
  /// so one damaged row never hides the others.
  public func listAccounts() throws(VaultError) -> AccountListing {
    // One snapshot for the keys' thumbprints, the rows (`mapRows` reads them apart) and the
    // default marks; a mark is trusted only for a row that was read.
    try readTransaction { table throws(VaultError) in
      var accounts: [AccountRecord] = []
      var damaged: [DamagedAccount] = []
      for stored in try table.storedRows() {
        switch stored {
        case .readable(let account): accounts.append(account)
        case .damaged(let account): damaged.append(account)
        }
      }
      Self.sortForListing(&accounts)
      return AccountListing(
        accounts: accounts, damaged: damaged.sorted { $0.id < $1.id },
        defaults: try table.defaults(among: accounts))
    }
  }

  /// The order of `listAccounts()`: by provider id, then label.
  static func listingOrder(_ left: AccountRecord, _ right: AccountRecord) -> Bool {
    (left.providerID, left.label) < (right.providerID, right.label)
  }

  /// Sorts `accounts` into `listingOrder` by their names read once: comparing the records
  /// themselves reads both names through their storage at every step, which for 10,000
  /// accounts in the order their rows were written took about three times as long.
  static func sortForListing(_ accounts: inout [AccountRecord]) {
    let names = accounts.map { ($0.providerID, $0.label) }
    let order = names.indices.sorted { names[$0] < names[$1] }
    accounts = order.map { accounts[$0] }
  }

  /// The account with this id; `accountNotFound` or `accountDamaged` otherwise.
  public func account(_ id: AccountID) throws(VaultError) -> AccountRecord {
    try readTransaction { table throws(VaultError) in
      try Self.decoded(try table.existingRow(id), by: table)
    }
  }

  /// The account named `providerID`/`label`, or nil when there is none.
  ///
  /// One indexed read of the blind name index (see `VaultKeys.nameIndex`), then one row decrypted;
  /// the row's sealed name is checked against the request.
  public func account(providerID: String, label: String) throws(VaultError) -> AccountRecord? {
    try readTransaction { table throws(VaultError) in
      let index = table.keys.nameIndex(providerID: providerID, label: label)
      guard let row = try table.row(nameIndex: index) else { return nil }
      return try Self.decoded(row, by: table)
    }
  }

  /// The account with this id as far as its cells open (`accountNotFound` when there is none):
  /// unlike `account(_:)`, a damaged row is returned, not thrown, so it can be removed.
  public func storedAccount(_ id: AccountID) throws(VaultError) -> StoredAccount {
    try readTransaction { table throws(VaultError) in table.stored(try table.existingRow(id)) }
  }

  /// The row that answers to `providerID`/`label`, read as far as its cells open; nil when none
  /// does. For the callers that must reach a damaged account too: removal, and sign-in (which
  /// must not put a second account beside a damaged one of the same name).
  ///
  /// The blind index finds the row first. A row it finds whose sealed name opens as another name
  /// is passed over (its index was moved there). When the index gives nothing that fits, the
  /// provider and label cells of every row are opened, to find a row of that name whose index
  /// alone is damaged. A `.damaged` result with a nil provider id or label is a row that the
  /// index files under this name while the name's own cells do not open: the name cannot be
  /// confirmed, so callers should name that row by id.
  public func storedAccount(providerID: String, label: String) throws(VaultError)
    -> StoredAccount?
  {
    try readTransaction { table throws(VaultError) in
      try Self.storedAccount(providerID: providerID, label: label, in: table)
    }
  }

  private static func storedAccount(providerID: String, label: String, in table: AccountTable)
    throws(VaultError) -> StoredAccount?
  {
    var passedOver: AccountID?
    if let row = try table.row(
      nameIndex: table.keys.nameIndex(providerID: providerID, label: label))
    {
      let stored = table.stored(row)
      guard case .damaged(let damaged) = stored else { return stored }
      let contradicts =
        damaged.providerID.map { $0 != providerID } == true
        || damaged.label.map { $0 != label } == true
      if !contradicts { return stored }
      passedOver = row.id
    }
    for row in try table.allRows() where row.id != passedOver {
      let name = table.readableName(row)
      if name.providerID == providerID && name.label == label { return table.stored(row) }
    }
    return nil
  }

  /// Adds an account; `duplicateAccount` when its provider id and label are taken. With
  /// `dpopKey`, the account holds that key pair (its tokens are bound to it), sealed in the
  /// same transaction.
  public func insert(_ account: NewAccount, dpopKey: P256SigningKey? = nil) throws(VaultError)
    -> AccountRecord
  {
    try writeTransaction { table throws(VaultError) in
      let record = try table.insert(account)
      return record.holdingKey(
        ofThumbprint: try DPoPKeyTable(table).replace(dpopKey, of: record.id))
    }
  }

  /// The DPoP key pair (RFC 9449) account `id` holds, nil when it has none (its tokens are
  /// Bearer tokens). A key cell that does not open is the account's damage
  /// (`accountDamaged`). The private key stays inside the value returned, which never prints
  /// it, and is never written anywhere but this vault.
  public func dpopKey(of id: AccountID) throws(VaultError) -> P256SigningKey? {
    try readTransaction { table throws(VaultError) in
      _ = try table.existingRow(id)
      return try DPoPKeyTable(table).key(of: id)
    }
  }

  /// Adds several accounts in one transaction: all of them, or none when one fails.
  public func insert(contentsOf accounts: [NewAccount]) throws(VaultError) -> [AccountRecord] {
    try writeTransaction { table throws(VaultError) in
      var records: [AccountRecord] = []
      for account in accounts {
        records.append(try table.insert(account))
      }
      return records
    }
  }

  /// Replaces the account's tokens (after a new sign-in) and clears "sign-in needed"; the
  /// account's DPoP key becomes `dpopKey`, the one the sign-in bound the tokens to (nil: none,
  /// and a key it held is deleted), and its identity fields `identity` when given, in the same
  /// transaction.
  ///
  /// For a refresh, use `beginRefresh` and `completeRefresh` instead: they keep two processes from
  /// spending the same refresh token, and keep the key.
  public func updateTokens(
    of id: AccountID, to tokens: TokenSet, dpopKey: P256SigningKey? = nil,
    identity: [String: String]? = nil
  ) throws(VaultError) -> AccountRecord {
    try writeTransaction { table throws(VaultError) in
      if let identity {
        _ = try table.update(id, [(.identity, CellCodec.encode(identity))])
      }
      let record = try Self.write(tokens, needsSignIn: false, to: id, in: table)
      return record.holdingKey(ofThumbprint: try DPoPKeyTable(table).replace(dpopKey, of: id))
    }
  }

  /// Gives the account another label; `duplicateAccount` when the provider already has one.
  public func rename(_ id: AccountID, to label: String) throws(VaultError) -> AccountRecord {
    guard !label.isEmpty else { throw .invalidAccountName }
    return try writeTransaction { table throws(VaultError) in
      let row = try table.existingRow(id)
      let old = try Self.decodedName(row, by: table)
      let (tokens, needsSignIn) = try Self.decodedTokens(row, by: table)
      let name = AccountNameCells(
        providerID: old.providerID, label: label, subject: old.subject, identity: old.identity)
      let version: Int64
      do throws(VaultError) {
        version = try table.update(
          id, [(.label, CellCodec.encode(label))],
          nameIndex: table.keys.nameIndex(providerID: old.providerID, label: label))
      } catch .constraint {
        throw .duplicateAccount(providerID: old.providerID, label: label)
      }
      return table.record(
        id, version: version, name, tokens, needsSignIn: needsSignIn,
        dpopThumbprint: table.dpopThumbprint(row))
    }
  }

  /// Clears every token, scope and expiry of the account and its DPoP key, and marks it
  /// "sign-in needed"; the account itself stays, so a new sign-in can fill it again.
  public func markSignInNeeded(_ id: AccountID, at date: Date = Date()) throws(VaultError)
    -> AccountRecord
  {
    try writeTransaction { table throws(VaultError) in
      try Self.write(.none(at: date), needsSignIn: true, to: id, in: table)
    }
  }

  /// Removes the account (and any refresh lease on it). Its cells are overwritten on disk
  /// (`secure_delete`). No cell is opened, so a damaged account goes just as well.
  public func delete(_ id: AccountID) throws(VaultError) {
    try writeTransaction { table throws(VaultError) in
      guard try table.delete(id) else { throw VaultError.accountNotFound(id) }
    }
  }

  // MARK: Shared with the refresh lease

  /// Writes the token cells (not the name), bumps the version, returns the account. An account
  /// marked "sign-in needed" loses its DPoP key with its tokens: the next sign-in makes another.
  static func write(
    _ tokens: TokenSet, needsSignIn: Bool, to id: AccountID, in table: AccountTable
  ) throws(VaultError) -> AccountRecord {
    let row = try table.existingRow(id)
    let name = try decodedName(row, by: table)
    let version = try table.update(id, AccountTable.plaintexts(tokens, needsSignIn: needsSignIn))
    if needsSignIn { try DPoPKeyTable(table).delete(of: id) }
    return table.record(
      id, version: version, name, tokens, needsSignIn: needsSignIn,
      dpopThumbprint: needsSignIn ? nil : table.dpopThumbprint(row))
  }

  static func decoded(_ row: StoredAccountRow, by table: AccountTable) throws(VaultError)
    -> AccountRecord
  {
    do {
      return try table.decode(row)
    } catch {
      throw .accountDamaged(row.id, error)
    }
  }

  static func decodedName(_ row: StoredAccountRow, by table: AccountTable)
    throws(VaultError) -> AccountNameCells
  {
    do {
      return try table.decodeName(row)
    } catch {
      throw .accountDamaged(row.id, error)
    }
  }

  private static func decodedTokens(_ row: StoredAccountRow, by table: AccountTable)
    throws(VaultError) -> (TokenSet, Bool)
  {
    do {
      return try table.decodeTokens(row)
    } catch {
      throw .accountDamaged(row.id, error)
    }
  }
}
