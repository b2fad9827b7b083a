/// The default account of each provider: the one a bare `PROVIDER` names when the provider has
/// several (`authtui default`). The mark lives in `provider_defaults`, keyed by the provider's
/// blind index, so it goes with the vault file and every process sees the same one.
extension Vault {
  /// Makes account `id` its provider's default, in place of any other. The account's name
  /// cells must open (only they are read): a damaged name cannot be anyone's default.
  public func makeDefault(_ id: AccountID) throws(VaultError) {
    try writeTransaction { table throws(VaultError) in
      let name = try Self.decodedName(try table.existingRow(id), by: table)
      try table.connection.run(
        """
        INSERT INTO provider_defaults (provider_index, account_id) VALUES (?, ?)
        ON CONFLICT (provider_index) DO UPDATE SET account_id = excluded.account_id
        """,
        [
          .blob(table.keys.providerIndex(providerID: name.providerID)),
          .integer(id.rawValue),
        ])
    }
  }

  /// Removes the default mark of provider `providerID`; false when it had none.
  @discardableResult
  public func clearDefault(providerID: String) throws(VaultError) -> Bool {
    try writeTransaction { table throws(VaultError) in
      try table.connection.run(
        "DELETE FROM provider_defaults WHERE provider_index = ?",
        [.blob(table.keys.providerIndex(providerID: providerID))]) > 0
    }
  }

  /// The default account of provider `providerID`, or nil when it has none (or the marked row
  /// is not that provider's: a mark is trusted only when the account it names says so).
  public func defaultAccountID(providerID: String) throws(VaultError) -> AccountID? {
    // One snapshot for the mark and the row it names.
    try readTransaction { table throws(VaultError) in
      let marked = try table.connection.query(
        "SELECT account_id FROM provider_defaults WHERE provider_index = ?",
        [.blob(table.keys.providerIndex(providerID: providerID))]
      ) { AccountID($0.int64(0)) }
      guard let id = marked.first, let row = try table.row(id) else { return nil }
      return table.readableName(row).providerID == providerID ? id : nil
    }
  }
}

extension AccountTable {
  /// The ids of `accounts` that are their provider's default.
  func defaults(among accounts: [AccountRecord]) throws(VaultError) -> Set<AccountID> {
    var byID: [AccountID: String]?
    return try defaults { id in
      if byID == nil {
        byID = Dictionary(
          accounts.map { ($0.id, $0.providerID) }, uniquingKeysWith: { first, _ in first })
      }
      return byID?[id]
    }
  }

  /// The ids of the accounts that are their provider's default, `providerID` giving the
  /// provider id of a readable account (nil for any other id); asked only about marked ids.
  func defaults(providerID: (AccountID) -> String?) throws(VaultError) -> Set<AccountID> {
    let marks = try connection.query("SELECT provider_index, account_id FROM provider_defaults") {
      (index: $0.blob(0) ?? [], id: AccountID($0.int64(1)))
    }
    var marked: Set<AccountID> = []
    for mark in marks {
      guard let provider = providerID(mark.id) else { continue }
      if keys.providerIndex(providerID: provider) == mark.index { marked.insert(mark.id) }
    }
    return marked
  }
}
