import Crypto
import Foundation
import Isolation

/// The encrypted token vault: one SQLite file, owned by this actor's single connection.
///
/// Every request runs on the vault's own serial dispatch queue (not the cooperative thread pool),
/// so scrypt and SQLite's busy waits never stall the UI or other tasks: callers `await` results.
/// Several processes may use the same file at once; SQLite transactions (WAL journal,
/// `BEGIN IMMEDIATE` for every read-modify-write, a bounded busy timeout) keep them consistent.
///
/// Lifecycle: `create` makes a new file and returns it unlocked; `open` returns an existing vault
/// locked, `unlock` derives the key-encryption key from the passphrase and unwraps the data key,
/// `lock` forgets the keys, `close` drops the connection. A wrong passphrase throws
/// `VaultError.wrongPassphrase` and leaves the file byte-for-byte as it was, but for the pages of
/// the unlock turns (the turn its key derivation took is deleted again, leaving a zeroed husk in
/// free space); a file written by a newer schema (`VaultError.newerSchema`) is not touched at
/// all.
///
/// On disk, only bookkeeping is plaintext: row ids, row versions, refresh leases, the KDF
/// parameters and salt, and the schema version. Every identifying field and every token is a
/// separately sealed AES-256-GCM cell (see `CellSealer`).
public actor Vault {
  private let executor = QueueExecutor(label: "authtui.vault")

  /// Runs the actor on its own queue; see the type's documentation.
  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// A task executor on the vault's own queue. A task that prefers it runs its nonisolated
  /// code between the vault's jobs, one at a time with them, and goes into and out of the vault
  /// on the thread it is on, with no hand-off to another thread and back. For tasks that do
  /// little but ask the vault (the agent's answers); what they do outside the vault holds the
  /// vault up, so it must not block.
  public nonisolated var sharedTaskExecutor: QueueTaskExecutor {
    executor.sharingTaskExecutor()
  }

  /// Where the vault file is.
  public nonisolated let location: VaultLocation

  let busyTimeout: Duration
  let migrations: [SchemaMigration]
  var connection: SQLiteConnection?
  var keys: VaultKeys?
  var sealer: CellSealer?
  /// The salt of the header the keys came from: another process's passphrase change writes a
  /// fresh one.
  var unlockedSalt: [UInt8]?
  /// The key-encryption key the passphrase gave (see `unlockKey`).
  var keyEncryptionKey: SymmetricKey?
  /// scrypt, but for tests that watch when a derivation runs.
  let keyDerivation: KeyDerivation

  private init(
    location: VaultLocation, busyTimeout: Duration, migrations: [SchemaMigration],
    keyDerivation: KeyDerivation = .scrypt
  ) {
    precondition(
      migrations.enumerated().allSatisfy { $0.offset + 1 == $0.element.version },
      "schema migrations must be numbered 1, 2, 3… in order")
    self.location = location
    self.busyTimeout = busyTimeout
    self.migrations = migrations
    self.keyDerivation = keyDerivation
  }

  /// The schema version this build writes; files above it are refused.
  public static var supportedSchemaVersion: Int { VaultSchema.migrations.count }

  // MARK: Opening

  /// Opens an existing vault, locked.
  ///
  /// Refuses a missing file (`noVault`), a file others can read (`unsafePermissions`, with the
  /// `chmod` to run), a file that is not a vault (`notAVault`) and one written by a newer schema
  /// (`newerSchema`); none of these writes anything. `busyTimeout` bounds how long any request
  /// waits while another process holds the write lock before failing with `busy`.
  public static func open(
    at location: VaultLocation, busyTimeout: Duration = .seconds(10)
  ) async throws(VaultError) -> Vault {
    try await open(at: location, busyTimeout: busyTimeout, migrations: VaultSchema.migrations)
  }

  /// `open` with another schema history (tests of migrations), or another key derivation
  /// (tests that watch when `unlock` derives a key).
  package static func open(
    at location: VaultLocation, busyTimeout: Duration = .seconds(10),
    migrations: [SchemaMigration], keyDerivation: KeyDerivation = .scrypt
  ) async throws(VaultError) -> Vault {
    let vault = Vault(
      location: location, busyTimeout: busyTimeout, migrations: migrations,
      keyDerivation: keyDerivation)
    try await vault.connect(refusingUnsafePermissions: true)
    return vault
  }

  /// Creates a new vault file, 0600 in a 0700 folder, and returns it unlocked.
  ///
  /// Draws a random 256-bit data key and a 32-byte salt, and wraps the key under
  /// scrypt(`passphrase`, `parameters`); the parameters are stored, and every later unlock uses
  /// them as stored. The command line always passes `Scrypt.Parameters.interactive` (the default);
  /// tests may pass cheaper ones. Refuses an empty passphrase and an existing file, but for an
  /// empty one of this user's (not a link), which it takes (`VaultLocation.createFile`).
  public static func create(
    at location: VaultLocation, passphrase: Passphrase,
    parameters: Scrypt.Parameters = .interactive, busyTimeout: Duration = .seconds(10)
  ) async throws(VaultError) -> Vault {
    try await create(
      at: location, passphrase: passphrase, parameters: parameters, busyTimeout: busyTimeout,
      migrations: VaultSchema.migrations)
  }

  /// `create` with another schema history (tests of migrations).
  package static func create(
    at location: VaultLocation, passphrase: Passphrase, parameters: Scrypt.Parameters,
    busyTimeout: Duration = .seconds(10), migrations: [SchemaMigration]
  ) async throws(VaultError) -> Vault {
    let vault = Vault(location: location, busyTimeout: busyTimeout, migrations: migrations)
    try await vault.initialise(passphrase: passphrase, parameters: parameters)
    return vault
  }

  /// The non-secret facts of a vault without its passphrase, even when its permissions are
  /// unsafe (the status then names the problem instead of refusing). Writes nothing.
  public static func inspect(at location: VaultLocation) async throws(VaultError) -> VaultStatus {
    let vault = Vault(
      location: location, busyTimeout: .seconds(10), migrations: VaultSchema.migrations)
    try await vault.connect(refusingUnsafePermissions: false)
    let status = try await vault.status()
    await vault.close()
    return status
  }

  private func connect(refusingUnsafePermissions: Bool) throws(VaultError) {
    let path = location.fileURL.path
    // Before SQLite opens it: a FIFO would block the read.
    if let problem = location.openingProblem(checkingPermissions: refusingUnsafePermissions) {
      throw problem
    }
    let connection = try SQLiteConnection(
      path: path, busyTimeout: busyTimeout, immutable: location.readsAsSnapshot())
    try Self.configure(connection)
    // Read-only checks first: nothing may be written to a file that is not ours or is newer.
    guard try connection.integerPragma("application_id") == VaultSchema.applicationID else {
      throw .notAVault(path: path)
    }
    guard try connection.integerPragma("user_version") > 0 else { throw .notAVault(path: path) }
    try connection.requireSchema(atMost: migrations.count)
    self.connection = connection
  }

  /// Connection settings that write nothing to the file.
  private static func configure(_ connection: SQLiteConnection) throws(VaultError) {
    // FULL: a commit is on disk (WAL fsynced) before it returns, so a crash never loses a rotated
    // refresh token that the provider already considers current. secure_delete: removed tokens
    // are overwritten with zeros, not left in free pages.
    try connection.execute("PRAGMA synchronous = FULL; PRAGMA secure_delete = ON")
  }

  private func initialise(passphrase: Passphrase, parameters: Scrypt.Parameters)
    throws(VaultError)
  {
    guard !passphrase.isEmpty else { throw .emptyPassphrase }
    let dataKey: SymmetricKey
    do {
      dataKey = try SymmetricKey.random()
    } catch {
      throw .unexpected("cannot draw a data key: \(error)")
    }
    let vaultID = SecureRandom.bytes(count: VaultHeader.vaultIDByteCount)
    // The slow part (scrypt) happens before the file exists, so a crash leaves nothing behind.
    let (header, keyEncryptionKey) = try VaultHeader.wrapping(
      dataKey, vaultID: vaultID, passphrase: passphrase, parameters: parameters)
    let taken = try location.createFile()
    do throws(VaultError) {
      let connection = try SQLiteConnection(path: location.fileURL.path, busyTimeout: busyTimeout)
      try Self.configure(connection)
      guard try connection.textPragma("journal_mode = WAL") == "wal" else {
        throw VaultError.storage(
          path: location.fileURL.path, detail: "the file system does not support a WAL journal")
      }
      let migrations = self.migrations
      let path = location.fileURL.path
      try connection.transaction(.immediate) { () throws(VaultError) in
        // An empty file taken may have become a vault meanwhile (another `vault init`).
        guard try connection.integerPragma("schema_version") == 0,
          !(try connection.hasTable("accounts"))
        else { throw VaultError.alreadyExists(path: path) }
        try connection.execute("PRAGMA application_id = \(VaultSchema.applicationID)")
        try connection.applyMigrations(migrations, from: 0)
        try header.write(to: connection)
      }
      let keys = try VaultKeys(dataKey: dataKey)
      self.connection = connection
      self.keys = keys
      self.sealer = CellSealer(key: keys.cellKey, vaultID: vaultID, schemaVersion: migrations.count)
      unlockedSalt = header.salt
      self.keyEncryptionKey = keyEncryptionKey
    } catch .alreadyExists(let path) {
      // Another process's vault now: not ours to remove.
      connection = nil
      throw .alreadyExists(path: path)
    } catch {
      connection = nil
      if taken { location.emptyTakenFile() } else { location.removeFiles() }
      throw error
    }
  }

  // MARK: Locking

  /// Derives the key-encryption key from `passphrase` (scrypt, with the stored parameters; about
  /// half a second and 128 MiB with the default ones) and unwraps the data key.
  ///
  /// The derivation takes a turn first (`Vault+UnlockTurns.swift`): when other processes hold
  /// every turn, this waits as `waiting` says, and throws `unlockTurnTimedOut` at its end.
  /// A header with parameters authtui never writes throws `damagedHeader` before any derivation;
  /// a wrong passphrase throws `wrongPassphrase`, a derivation that could not have its memory
  /// `keyDerivationFailed`; none of them changes anything (the turn is only bookkeeping, and
  /// given back). After a successful unlock, pending schema migrations run (one transaction)
  /// and the journal is set to WAL if it was not.
  public func unlock(with passphrase: Passphrase, waiting: UnlockWaiting = .quiet)
    async
    throws(VaultError)
  {
    // Read afresh: another process may have changed the passphrase since this vault was opened.
    let parameters = try VaultHeader.read(from: try openConnection()).parameters
    let turn = try await awaitUnlockTurn(for: parameters, waiting: waiting)
    let header: VaultHeader
    let unwrapped: (dataKey: SymmetricKey, keyEncryptionKey: SymmetricKey)?
    do {
      defer { turn.map(releaseUnlockTurn) }
      // Again after the wait, which may have been long.
      header = try VaultHeader.read(from: try openConnection())
      do {
        unwrapped = try header.unwrapDataKey(with: passphrase, derivation: keyDerivation)
      } catch {
        throw VaultError.keyDerivationFailed(
          path: location.fileURL.path, memoryBytes: header.parameters.memoryBound,
          detail: "\(error)")
      }
    }
    guard let unwrapped else { throw .wrongPassphrase(path: location.fileURL.path) }
    try finishUnlocking(
      try openConnection(), header: header, dataKey: unwrapped.dataKey,
      keyEncryptionKey: unwrapped.keyEncryptionKey)
  }

  /// Takes `dataKey` as the vault's keys: runs pending migrations and sets the WAL journal.
  func finishUnlocking(
    _ connection: SQLiteConnection, header: VaultHeader, dataKey: SymmetricKey,
    keyEncryptionKey: SymmetricKey
  ) throws(VaultError) {
    let keys = try VaultKeys(dataKey: dataKey)
    let sealer = CellSealer(
      key: keys.cellKey, vaultID: header.vaultID, schemaVersion: migrations.count)
    try connection.migrate(with: migrations, sealer: sealer)
    // A vault read as an immutable snapshot reports no WAL journal, and cannot be given one.
    if !connection.isReadOnly, try connection.textPragma("journal_mode") != "wal" {
      _ = try connection.textPragma("journal_mode = WAL")
    }
    self.keys = keys
    self.sealer = sealer
    unlockedSalt = header.salt
    self.keyEncryptionKey = keyEncryptionKey
    // Tokens of a refresh the vault could not store are stored now if there is room; if not,
    // the next refresh of their account hands them out (`beginRefresh`).
    _ = try? storeKeptAside(for: nil)
  }

  /// Forgets the keys; the connection stays open for `status` and a later `unlock`.
  public func lock() {
    keys = nil
    sealer = nil
    unlockedSalt = nil
    keyEncryptionKey = nil
  }

  /// Forgets the keys and closes the file. Any later request throws `closed`.
  public func close() {
    lock()
    connection = nil
  }

  /// Why this vault cannot be written (`readOnly`), or nil when it can, as far as can be told
  /// before writing: the connection is read-only, or the file, its folder or its file system
  /// cannot be written. For commands that are about to ask a provider for tokens they must
  /// store (`login`): a sign-in whose tokens cannot be kept is not started.
  public func writeProblem() throws(VaultError) -> VaultError? {
    let connection = try openConnection()
    let path = location.fileURL.path
    if let block = location.writeBlock() { return .readOnly(path: path, block) }
    return connection.isReadOnly ? .readOnly(path: path, .readOnlyFile) : nil
  }

  /// True between a successful `unlock` (or `create`) and `lock`.
  public var isUnlocked: Bool { keys != nil }

  // MARK: Facts

  /// The vault's non-secret facts; works while locked.
  ///
  /// The account count needs no key: every account is one row, and row ids are plaintext anyway,
  /// so anyone holding the file can count them; nothing about any account is revealed.
  public func status() throws(VaultError) -> VaultStatus {
    let connection = try openConnection()
    let header = try VaultHeader.read(from: connection)
    let count = try connection.query("SELECT count(*) FROM accounts") { $0.int64(0) }.first ?? 0
    return VaultStatus(
      path: location.fileURL.path,
      identifier: Self.hex(header.vaultID),
      schemaVersion: Int(try connection.integerPragma("user_version")),
      supportedSchemaVersion: migrations.count,
      kdfParameters: header.parameters,
      saltByteCount: header.salt.count,
      accountCount: Int(count),
      fileMode: location.fileMode,
      permissionProblem: location.permissionProblem(),
      // A snapshot reads no journal, and SQLite says "delete" of it whatever the file's is.
      journalMode: connection.isSnapshot
        ? "read as a snapshot (its folder cannot be written)"
        : try connection.textPragma("journal_mode"),
      isUnlocked: isUnlocked)
  }

  /// The vault's id: the 16 random bytes its header holds (and every sealed cell's associated
  /// data binds), as 32 lowercase hex digits. It names this vault and no other, wherever the
  /// file is moved or linked; it is not secret. Works while locked.
  public func identifier() throws(VaultError) -> String {
    Self.hex(try VaultHeader.read(from: try openConnection()).vaultID)
  }

  private static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] })
  }

  /// A stamp that changes whenever another connection (another process, or another `Vault`
  /// value) commits to the file; this vault's own writes leave it as it is. Only equality
  /// matters: the UI compares it now and then to know when to list the accounts again.
  /// Works while locked.
  public func externalChangeStamp() throws(VaultError) -> Int64 {
    try openConnection().integerPragma("data_version")
  }

  /// True when the vault is unlocked and another process has changed its passphrase since: the
  /// keys still open the file (a passphrase change rewraps the same data key), but whoever
  /// holds them should be asked for the new passphrase. This vault's own change does not count.
  /// Reads only the header; costs no key derivation.
  public func passphraseChangedElsewhere() throws(VaultError) -> Bool {
    guard let unlockedSalt else { return false }
    return try VaultHeader.read(from: openConnection()).salt != unlockedSalt
  }

  // MARK: Shared by the extensions

  func openConnection() throws(VaultError) -> SQLiteConnection {
    guard let connection else { throw .closed(path: location.fileURL.path) }
    return connection
  }

  /// The account table of the unlocked vault (`locked` otherwise), for reading.
  ///
  /// Checks the file's schema version first: if a newer authtui migrated the file while this one
  /// had it open, every cell is now sealed under another version, and reading them here would
  /// misreport them all as damaged.
  func accountTable() throws(VaultError) -> AccountTable {
    let table = try unlockedTable()
    try table.connection.requireSchema(atMost: migrations.count)
    return table
  }

  /// Runs `body` on the account table of the unlocked vault in one read transaction that
  /// starts with the schema check (`accountTable()`'s), so the check and every read of `body`
  /// see one snapshot of the file: a newer authtui's migration between them cannot have its
  /// cells read as this version's (and misreported as damaged). One shared lock for both, too.
  func readTransaction<T>(_ body: (AccountTable) throws(VaultError) -> T) throws(VaultError) -> T {
    try checkedTransaction(.deferred, body)
  }

  /// Runs `body` in one `BEGIN IMMEDIATE` transaction of the unlocked vault, checking the schema
  /// version under the write lock, so this process never writes cells of an older version into
  /// a file another process has just migrated.
  func writeTransaction<T>(_ body: (AccountTable) throws(VaultError) -> T) throws(VaultError) -> T {
    try checkedTransaction(.immediate, body)
  }

  /// `body` in one transaction of `kind` that starts with the schema check.
  private func checkedTransaction<T>(
    _ kind: SQLiteConnection.TransactionKind, _ body: (AccountTable) throws(VaultError) -> T
  ) throws(VaultError) -> T {
    let table = try unlockedTable()
    let supported = migrations.count
    return try table.connection.transaction(kind) { () throws(VaultError) in
      try table.connection.requireSchema(atMost: supported)
      return try body(table)
    }
  }

  private func unlockedTable() throws(VaultError) -> AccountTable {
    let connection = try openConnection()
    guard let keys, let sealer else { throw .locked(path: location.fileURL.path) }
    return AccountTable(connection: connection, keys: keys, sealer: sealer)
  }
}
