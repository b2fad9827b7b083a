/// The accounts as they stand, and how they differ from an earlier listing: what
/// `Vault.listAccounts(updating:)` returns.
public struct AccountListingUpdate: Sendable, Equatable {
  /// Every account now, as `Vault.listAccounts()` would list them.
  public let listing: AccountListing
  /// The readable accounts read afresh because the earlier listing did not have them as they
  /// are now: added since, written since (another version: new tokens, a rename), or readable
  /// again. In the order of `listing.accounts`.
  public let changed: [AccountRecord]
  /// The readable accounts of the earlier listing that are not readable accounts now: removed
  /// since, or damaged since (then in `listing.damaged`). By id.
  public let removed: [AccountID]
  /// How many rows were read and had their cells opened to make the update: the changed ones,
  /// and those the earlier listing had as damaged.
  public let rowsRead: Int

  /// An update of the listing `listing` (for tests and previews of code that consumes them).
  public init(
    listing: AccountListing, changed: [AccountRecord], removed: [AccountID], rowsRead: Int
  ) {
    self.listing = listing
    self.changed = changed
    self.removed = removed
    self.rowsRead = rowsRead
  }

  /// True when nothing readable was added, changed or removed.
  public var isEmpty: Bool { changed.isEmpty && removed.isEmpty }
}
