/// A reload that reads only what changed: after another process wrote the vault (a `login`, a
/// refresh, a `logout`), the UI and the agent hand in the listing they hold, and get it back
/// up to date, having opened the cells of the changed rows alone.
extension Vault {
  /// Every account, as `listAccounts()` lists them, made from `previous` (an earlier listing
  /// of this vault) and the rows written since: every row's id and version are read (plaintext
  /// bookkeeping, from their own index), and only the rows whose version `previous` does not
  /// hold are read and decrypted, with those `previous` lists as damaged. A row that is gone
  /// is removed. The default marks are read again (a few rows, no cell opened).
  ///
  /// A row's version goes up with every write of it (`AccountTable.update`) and ids are never
  /// reused, so a record of `previous` with the row's id and version holds what the row holds.
  public func listAccounts(updating previous: AccountListing) throws(VaultError)
    -> AccountListingUpdate
  {
    // One snapshot for the schema check, the versions, the rows and the marks.
    try readTransaction { table throws(VaultError) in try Self.update(previous, from: table) }
  }

  private static func update(_ previous: AccountListing, from table: AccountTable)
    throws(VaultError) -> AccountListingUpdate
  {
    var kept: [AccountID: Int] = [:]
    kept.reserveCapacity(previous.accounts.count)
    for (position, account) in previous.accounts.enumerated() {
      kept[account.id] = position
    }
    var stillKept = [Bool](repeating: false, count: previous.accounts.count)
    var toRead: [AccountID] = []
    for (id, version) in try table.rowVersions() {
      if let position = kept[id], previous.accounts[position].version == version {
        stillKept[position] = true
      } else {
        toRead.append(id)
      }
    }
    var changed: [AccountRecord] = []
    var damaged: [DamagedAccount] = []
    for id in toRead {
      // The snapshot that gave its version has the row; skipped all the same if not.
      guard let row = try table.row(id) else { continue }
      switch table.stored(row) {
      case .readable(let account): changed.append(account)
      case .damaged(let account): damaged.append(account)
      }
    }
    let readAgain = Set(changed.map(\.id))
    let removed = previous.accounts.indices.filter { !stillKept[$0] }.map {
      previous.accounts[$0].id
    }.filter { !readAgain.contains($0) }
    var accounts = previous.accounts.indices.filter { stillKept[$0] }.map {
      previous.accounts[$0]
    }
    Self.sortForListing(&changed)
    if changed.count <= 64 {
      // Each into its place: the kept ones are in order already.
      for account in changed {
        accounts.insert(account, at: Self.place(of: account, in: accounts))
      }
    } else {
      accounts += changed
      Self.sortForListing(&accounts)
    }
    let defaults = try table.defaults { id in
      if let account = changed.first(where: { $0.id == id }) { return account.providerID }
      guard let position = kept[id], stillKept[position] else { return nil }
      return previous.accounts[position].providerID
    }
    return AccountListingUpdate(
      listing: AccountListing(
        accounts: accounts, damaged: damaged.sorted { $0.id < $1.id }, defaults: defaults),
      changed: changed, removed: removed.sorted(), rowsRead: toRead.count)
  }

  /// Where `account` goes in `accounts`, which are in `listingOrder`: a binary search.
  private static func place(of account: AccountRecord, in accounts: [AccountRecord]) -> Int {
    var low = 0
    var high = accounts.count
    while low < high {
      let middle = (low + high) / 2
      if listingOrder(accounts[middle], account) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }
}
