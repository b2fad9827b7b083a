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
  /// A lease whose `expiresAt` is not after `now`, or whose holder process has ended
  /// (`LeaseHolderProcess`), is taken over. Choose `duration` longer than the refresh request
  /// may take, with room to store its answer. `holder` is stored in plaintext for "held by …"
  /// messages: describe the process (`authtui token, pid 4242`), never the account. A lease taken
  /// over from a holder whose request was sent, or from a marker left by `releaseRefresh`,
  /// comes with `refreshTokenMayBeSpent` while the account's tokens are unchanged since.
  ///
  /// Tokens of an earlier refresh that were kept aside (`keepAside`) are stored first; while
  /// they cannot be (the disk is still full), no lease is taken and they come back as
  /// `keptAside`, so the refresh token they replaced is never spent again.
  public func beginRefresh(
    of id: AccountID, holder: String, duration: TimeInterval = 60, now: Date = Date()
  ) throws(VaultError) -> LeaseOutcome {
    if let kept = try storeKeptAside(for: id) {
      let stored = try account(id)
      return .keptAside(
        AccountRecord(
          id: id, version: stored.version, providerID: stored.providerID, label: stored.label,
          subject: stored.subject, identity: stored.identity, tokens: kept, needsSignIn: false,
          dpopThumbprint: stored.dpopThumbprint))
    }
    let table = try accountTable()
    let connection = table.connection
    let process = LeaseHolderProcess.current
    return try connection.transaction(.immediate) { () throws(VaultError) in
      let current = try connection.query(
        """
        SELECT holder, expires_at_ms, holder_pid, holder_process, sent_account_version
        FROM refresh_leases WHERE account_id = ?
        """,
        [.integer(id.rawValue)]
      ) {
        (
          holder: $0.text(0), until: Self.date(milliseconds: $0.int64(1)),
          process: LeaseHolderProcess(
            pid: Int32(truncatingIfNeeded: $0.int64(2)), identity: $0.text(3)),
          sentVersion: $0.int64(4)
        )
      }.first
      if let current, current.until > now, current.process.isRunning {
        return .heldByOther(holder: current.holder, until: current.until)
      }
      let account = try Self.decoded(try table.existingRow(id), by: table)
      let mayBeSpent =
        current.map { $0.sentVersion != 0 && $0.sentVersion == account.version } ?? false
      // Stored in whole milliseconds; the lease reports exactly what is stored.
      let expiry = Self.milliseconds(now.addingTimeInterval(duration))
      let lease = RefreshLease(
        accountID: id, holder: holder, expiresAt: Self.date(milliseconds: expiry),
        accountVersion: account.version, refreshTokenMayBeSpent: mayBeSpent,
        token: SecureRandom.bytes(count: 16))
      try connection.run(
        """
        INSERT OR REPLACE INTO refresh_leases
          (account_id, lease_token, holder, expires_at_ms, holder_pid, holder_process,
           sent_account_version)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """,
        [
          .integer(id.rawValue), .blob(lease.token), .text(holder), .integer(expiry),
          .integer(Int64(process.pid)), .text(process.identity),
          .integer(mayBeSpent ? account.version : 0),
        ])
      return .acquired(lease, account)
    }
  }

  /// Records, before the refresh request leaves, that it may reach the provider: if this holder
  /// never stores the answer, the next holder knows the refresh token may be spent. Throws
  /// `leaseLost` (and the request must not be sent) when the lease is no longer this one.
  ///
  /// First secures the room `keepAside` would need (`RefreshSideFile`): `noRoomForRefresh`
  /// when the disk cannot give it, and then too the request must not be sent.
  public func markRefreshSent(_ lease: RefreshLease) throws(VaultError) {
    try refreshSideFile.reserve()
    let changed = try openConnection().run(
      """
      UPDATE refresh_leases SET sent_account_version = ?
      WHERE account_id = ? AND lease_token = ?
      """,
      [.integer(lease.accountVersion), .integer(lease.accountID.rawValue), .blob(lease.token)])
    guard changed == 1 else { throw VaultError.leaseLost(lease.accountID) }
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

  /// Gives the lease back without touching the tokens (the refresh failed, or was not needed
  /// after all). Releasing a lease that was already lost does nothing.
  ///
  /// With `refreshTokenMayBeSpent` (a request was sent and its answer is unknown), or when the
  /// lease came with that knowledge, the row stays behind as a lapsed marker, so that the next
  /// holder knows it too until the account's tokens change.
  public func releaseRefresh(_ lease: RefreshLease, refreshTokenMayBeSpent: Bool = false)
    throws(VaultError)
  {
    let bindings: [SQLiteValue] = [.integer(lease.accountID.rawValue), .blob(lease.token)]
    if refreshTokenMayBeSpent || lease.refreshTokenMayBeSpent {
      try openConnection().run(
        """
        UPDATE refresh_leases
        SET expires_at_ms = 0, holder_pid = 0, holder_process = '', sent_account_version = ?
        WHERE account_id = ? AND lease_token = ?
        """,
        [.integer(lease.accountVersion)] + bindings)
    } else {
      try openConnection().run(
        "DELETE FROM refresh_leases WHERE account_id = ? AND lease_token = ?", bindings)
    }
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
