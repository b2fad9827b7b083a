import Crypto
import Foundation

/// Cross-process single flight for token refresh (DESIGN.md "Vault").
///
/// A refresh token may be single-use (rotation): if two processes refreshed with it at once, the
/// second would fail or, with reuse detection, revoke the whole grant. So a refresher first takes
/// the account's lease in a `BEGIN IMMEDIATE` transaction, which serialises it against every other
/// process, and gets back the tokens as they are *now*: another process may have just refreshed,
/// in which case there is nothing to do but release. The new access token and the rotated refresh
/// token are written in the same transaction that releases the lease, so no process can ever see
/// the lease gone but the old tokens still there.
extension Vault {
  /// Takes the refresh lease of an account for `duration`, or reports who holds it.
  ///
  /// A lease whose `expiresAt` is not after `now` belonged to a holder that crashed or stalled,
  /// and is taken over. Choose `duration` longer than the refresh request's own timeout.
  /// `holder` is stored in plaintext for "held by …" messages: describe the process
  /// (`authtui token, pid 4242`), never the account.
  public func beginRefresh(
    of id: AccountID, holder: String, duration: TimeInterval = 60, now: Date = Date()
  ) throws(VaultError) -> LeaseOutcome {
    let table = try accountTable()
    let connection = table.connection
    return try connection.transaction(.immediate) { () throws(VaultError) in
      let current = try connection.query(
        "SELECT holder, expires_at_ms FROM refresh_leases WHERE account_id = ?",
        [.integer(id.rawValue)]
      ) { (holder: $0.text(0), until: Self.date(milliseconds: $0.int64(1))) }.first
      if let current, current.until > now {
        return .heldByOther(holder: current.holder, until: current.until)
      }
      let account = try Self.decoded(try table.existingRow(id), by: table)
      // Stored in whole milliseconds; the lease reports exactly what is stored.
      let expiry = Self.milliseconds(now.addingTimeInterval(duration))
      let lease = RefreshLease(
        accountID: id, holder: holder, expiresAt: Self.date(milliseconds: expiry),
        token: SecureRandom.bytes(count: 16))
      try connection.run(
        """
        INSERT OR REPLACE INTO refresh_leases (account_id, lease_token, holder, expires_at_ms)
        VALUES (?, ?, ?, ?)
        """,
        [.integer(id.rawValue), .blob(lease.token), .text(holder), .integer(expiry)])
      return .acquired(lease, account)
    }
  }

  /// Stores the refreshed tokens and releases the lease, in one transaction.
  ///
  /// Pass the complete new set: the new access token and the rotated refresh token (or the old
  /// refresh token, when the provider did not send one). Throws `leaseLost` and writes nothing
  /// when the lease is no longer this one (it expired and another holder took it over); an
  /// expired lease that nobody took over still completes.
  public func completeRefresh(_ lease: RefreshLease, tokens: TokenSet) throws(VaultError)
    -> AccountRecord
  {
    try finish(lease) { () throws(VaultError) in
      try Self.write(tokens, needsSignIn: false, to: lease.accountID, in: try accountTable())
    }
  }

  /// Clears the account's tokens and marks it "sign-in needed" (the provider answered
  /// `invalid_grant`), releasing the lease in the same transaction. Throws `leaseLost` like
  /// `completeRefresh`.
  public func markSignInNeeded(_ lease: RefreshLease, at date: Date = Date()) throws(VaultError)
    -> AccountRecord
  {
    try finish(lease) { () throws(VaultError) in
      try Self.write(
        .none(at: date), needsSignIn: true, to: lease.accountID, in: try accountTable())
    }
  }

  /// Gives the lease back without touching the tokens (the refresh failed on the network, or was
  /// not needed after all). Releasing a lease that was already lost does nothing.
  public func releaseRefresh(_ lease: RefreshLease) throws(VaultError) {
    try openConnection().run(
      "DELETE FROM refresh_leases WHERE account_id = ? AND lease_token = ?",
      [.integer(lease.accountID.rawValue), .blob(lease.token)])
  }

  private func finish(
    _ lease: RefreshLease, write: () throws(VaultError) -> AccountRecord
  ) throws(VaultError) -> AccountRecord {
    let connection = try accountTable().connection
    return try connection.transaction(.immediate) { () throws(VaultError) in
      let released = try connection.run(
        "DELETE FROM refresh_leases WHERE account_id = ? AND lease_token = ?",
        [.integer(lease.accountID.rawValue), .blob(lease.token)])
      guard released == 1 else { throw VaultError.leaseLost(lease.accountID) }
      return try write()
    }
  }

  private static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded(.up))
  }

  private static func date(milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }
}
