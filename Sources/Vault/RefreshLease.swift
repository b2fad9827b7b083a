import Foundation

/// The right, for a limited time, to refresh one account's tokens, shared by every process that
/// uses the vault (`Vault.beginRefresh`).
///
/// A lease is a row taken in a `BEGIN IMMEDIATE` transaction. Its holder refreshes, then writes
/// the result with `completeRefresh` (new tokens and the release in one transaction), or gives it
/// back with `releaseRefresh`. A holder that crashes leaves a lease that expires at `expiresAt`,
/// after which anyone may take it over.
public struct RefreshLease: Sendable, Equatable {
  /// The account being refreshed.
  public let accountID: AccountID
  /// Who holds it, as the holder described itself (for "held by …" messages).
  public let holder: String
  /// When the lease lapses and may be taken over.
  public let expiresAt: Date
  /// The random id that proves this lease is still the one stored.
  let token: [UInt8]
}

/// What `beginRefresh` found.
public enum LeaseOutcome: Sendable, Equatable {
  /// The caller holds the lease; the account as it is now, re-read inside the same transaction
  /// (another process may have refreshed it a moment ago: check before calling the provider).
  case acquired(RefreshLease, AccountRecord)
  /// Another holder has the lease until `until`: wait, then read the account again.
  case heldByOther(holder: String, until: Date)
}
