import Crypto
import Foundation

/// Refreshed tokens the vault could not store, kept aside in `RefreshSideFile` until it can.
///
/// A refresh that reached a provider that rotates refresh tokens must be stored whatever
/// happens: the old refresh token is spent. `markRefreshSent` secures the side file's room
/// before the request leaves; when the commit of the answer fails (a full disk, an I/O error)
/// and retries do not help, `keepAside` seals the new tokens into that room. Every later unlock
/// and every `beginRefresh` first stores what is kept aside, over the account version it
/// replaces and only that one, then wipes the record; a record whose account changed since is
/// obsolete and dropped. While a record cannot be stored yet, `beginRefresh` hands its tokens
/// out (`LeaseOutcome.keptAside`) instead of letting the old refresh token be spent again.
extension Vault {
  /// The side file of this vault: its path with `-refresh` after it.
  public nonisolated var refreshSideFilePath: String {
    location.fileURL.path + RefreshSideFile.suffix
  }

  var refreshSideFile: RefreshSideFile { RefreshSideFile(path: refreshSideFilePath) }

  /// Seals `tokens`, the answer of the refresh made under `lease`, into the side file. Throws
  /// when even that fails (then the tokens are lost, and the refresh token spent).
  public func keepAside(_ tokens: TokenSet, refreshedUnder lease: RefreshLease) throws(VaultError) {
    let table = try accountTable()
    let sealed = try table.sealer.sealKeptAside(
      Self.keptAsidePlaintext(tokens), account: lease.accountID, replacing: lease.accountVersion)
    let record = RefreshSideFile.Record(
      accountID: lease.accountID, replacedVersion: lease.accountVersion, sealed: sealed)
    // Under the write lock, which takes no room on disk, so that no other process appends or
    // wipes at the same moment; if the lock cannot be had, the record is still written.
    let locked = (try? table.connection.execute("BEGIN IMMEDIATE")) != nil
    defer { if locked { try? table.connection.execute("ROLLBACK") } }
    try refreshSideFile.append(record)
  }

  /// Stores every kept-aside record that still applies, then wipes the side file once nothing
  /// in it is needed. Returns the tokens kept aside for `id` that could not be stored yet (the
  /// disk is still full), nil when there are none. One 4-byte read when the file holds nothing.
  func storeKeptAside(for id: AccountID?) throws(VaultError) -> TokenSet? {
    let file = refreshSideFile
    guard file.hasRecords() else { return nil }
    let table = try accountTable()
    let records = try file.records().records
    var current: [(record: RefreshSideFile.Record, tokens: TokenSet)] = []
    for record in records {
      guard let tokens = openKeptAside(record, in: table),
        let row = try? table.existingRow(record.accountID), row.version == record.replacedVersion
      else { continue }
      current.append((record, tokens))
    }
    if !current.isEmpty {
      do {
        try writeTransaction { table throws(VaultError) in
          for (record, tokens) in current
          where try table.existingRow(record.accountID).version == record.replacedVersion {
            // The holder that kept them aside could not give its lease back.
            try table.connection.run(
              "DELETE FROM refresh_leases WHERE account_id = ? AND sent_account_version = ?",
              [.integer(record.accountID.rawValue), .integer(record.replacedVersion)])
            _ = try Self.write(tokens, needsSignIn: false, to: record.accountID, in: table)
          }
        }
      } catch {
        return current.last { $0.record.accountID == id }?.tokens
      }
    }
    try wipeObsoleteKeptAside()
    return nil
  }

  /// Wipes the side file when none of its records applies any more, under the write lock (so
  /// a record another process appends meanwhile is never wiped).
  private func wipeObsoleteKeptAside() throws(VaultError) {
    let table = try accountTable()
    try table.connection.execute("BEGIN IMMEDIATE")
    defer { try? table.connection.execute("ROLLBACK") }
    let (records, end) = try refreshSideFile.records()
    let needed = records.contains { record in
      guard openKeptAside(record, in: table) != nil,
        let row = try? table.existingRow(record.accountID)
      else { return false }
      return row.version == record.replacedVersion
    }
    if !needed { try refreshSideFile.wipe(upTo: end) }
  }

  private func openKeptAside(_ record: RefreshSideFile.Record, in table: AccountTable)
    -> TokenSet?
  {
    table.sealer.openKeptAside(
      record.sealed, account: record.accountID, replacing: record.replacedVersion
    ).flatMap(Self.keptAsideTokens)
  }

  /// The tokens as the cells encode them (`CellCodec`), each length-prefixed, in a fixed order
  /// of this record format's own (not the table's columns, which a schema may extend).
  static func keptAsidePlaintext(_ tokens: TokenSet) -> [UInt8] {
    let fields: [[UInt8]] = [
      CellCodec.encode(false),
      CellCodec.encode(tokens.accessToken, CellCodec.encode),
      CellCodec.encode(tokens.refreshToken, CellCodec.encode),
      CellCodec.encode(tokens.idToken, CellCodec.encode),
      CellCodec.encode(tokens.tokenType, CellCodec.encode),
      CellCodec.encode(tokens.scopes),
      CellCodec.encode(tokens.expiresAt, CellCodec.encode),
      CellCodec.encode(tokens.obtainedAt),
      CellCodec.encode(tokens.refreshValidity, CellCodec.encode),
    ]
    return fields.flatMap { CellCodec.bigEndian(UInt32($0.count)) + $0 }
  }

  static func keptAsideTokens(_ plaintext: [UInt8]) -> TokenSet? {
    var fields: [[UInt8]] = []
    var offset = 0
    while offset + 4 <= plaintext.count {
      let count = plaintext[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      offset += 4
      guard count <= plaintext.count - offset else { return nil }
      fields.append(Array(plaintext[offset..<offset + count]))
      offset += count
    }
    // signInNeeded, access, refresh, id, type, scopes, expiry, obtained, refresh validity.
    guard offset == plaintext.count, fields.count == 9,
      let accessToken = CellCodec.decodeOptionalText(fields[1]),
      let refreshToken = CellCodec.decodeOptionalText(fields[2]),
      let idToken = CellCodec.decodeOptionalText(fields[3]),
      let tokenType = CellCodec.decodeOptionalText(fields[4]),
      let scopes = CellCodec.decodeList(fields[5]),
      let expiresAt = CellCodec.decodeOptionalDate(fields[6]),
      let obtainedAt = CellCodec.decodeDate(fields[7]),
      let refreshValidity = CellCodec.decodeOptionalInterval(fields[8])
    else { return nil }
    return TokenSet(
      accessToken: accessToken, refreshToken: refreshToken, idToken: idToken,
      tokenType: tokenType, scopes: scopes, expiresAt: expiresAt, obtainedAt: obtainedAt,
      refreshValidity: refreshValidity)
  }
}

extension CellSealer {
  /// Seals the plaintext of kept-aside tokens, bound to this vault, the account and the version
  /// they replace: a record copied to another vault or account, or replayed over another
  /// version, does not open.
  func sealKeptAside(_ plaintext: [UInt8], account: AccountID, replacing version: Int64)
    throws(VaultError) -> [UInt8]
  {
    do {
      return try AESGCM.seal(
        plaintext, using: key,
        authenticating: keptAsideData(account: account, version: version)
      ).combined
    } catch {
      throw .unexpected("AES-GCM sealing failed: \(error)")
    }
  }

  /// The plaintext, or nil when the record fails authentication.
  func openKeptAside(_ sealed: [UInt8], account: AccountID, replacing version: Int64)
    -> [UInt8]?
  {
    guard let box = try? AESGCM.SealedBox(combined: sealed) else { return nil }
    return try? AESGCM.open(
      box, using: key, authenticating: keptAsideData(account: account, version: version))
  }

  private func keptAsideData(account: AccountID, version: Int64) -> [UInt8] {
    Array("authtui kept-aside refresh v1".utf8) + CellCodec.bigEndian(UInt32(vaultID.count))
      + vaultID + CellCodec.bigEndian(UInt64(bitPattern: account.rawValue))
      + CellCodec.bigEndian(UInt64(bitPattern: version))
  }
}
