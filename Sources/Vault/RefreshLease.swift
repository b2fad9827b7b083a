import Foundation

/// The right, for a limited time, to refresh one account's tokens, shared by every process that
/// uses the vault (`Vault.beginRefresh`).
///
/// A lease is a row taken in a `BEGIN IMMEDIATE` transaction. Its holder refreshes, then writes
/// the result with `completeRefresh` (new tokens and the release in one transaction), or gives it
/// back with `releaseRefresh`. A holder that crashes leaves a lease that expires at `expiresAt`,
/// or at once when its process is seen to have ended, after which anyone may take it over.
///
/// Before its request leaves, the holder records that it was sent (`markRefreshSent`). A
/// request whose answer was never stored (the holder died, or gave up at its deadline) may
/// still have reached the provider, which then spent the refresh token; the next holder learns
/// this from `refreshTokenMayBeSpent` until the account's tokens change.
public struct RefreshLease: Sendable, Equatable {
  /// The account being refreshed.
  public let accountID: AccountID
  /// Who holds it, as the holder described itself (for "held by …" messages).
  public let holder: String
  /// When the lease lapses and may be taken over.
  public let expiresAt: Date
  /// The account's version when the lease was taken.
  public let accountVersion: Int64
  /// True when an earlier refresh with the account's current refresh token was sent and its
  /// answer never stored: the provider may have spent that refresh token.
  public let refreshTokenMayBeSpent: Bool
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
  /// An earlier refresh's answer is kept aside (`Vault.keepAside`) and the vault still cannot
  /// store it: the account with those tokens in place of the stored ones. No lease was taken,
  /// and the stored refresh token must not be used: the provider has spent it.
  case keptAside(AccountRecord)
}
