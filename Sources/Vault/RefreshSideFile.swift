import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The vault's side file (`vault.db-refresh`): room, set aside before a refresh request leaves,
/// for the answer of a refresh that the vault itself then cannot store.
///
/// Why a file of its own: SQLite in WAL mode appends frames at commit, so no reservation inside
/// the database can promise that the commit storing a rotated refresh token will find room on
/// a full disk, and a provider that rotates has already spent the old token by then. This file
/// is given its whole size (`posix_fallocate`) before the request is sent, so writing a record
/// into it later needs no new blocks. It stays allocated: one fixed size, created once.
///
/// Records are appended, never rewritten, while any of them may still be needed; the file is
/// wiped (zeros over the used part) only when every record in it is obsolete (stored, or
/// replaced by a newer change of its account). A record is `RecordHeader` (magic, account id,
/// the account version it replaces, length; plaintext bookkeeping like a refresh lease) and the
/// tokens sealed with the vault's cell key, bound to vault, account and version
/// (`CellSealer.sealKeptAside`): nothing secret is ever in plaintext here.
///
/// The file is opened only as a regular file of this user's with no group or other bits, never
/// through a symlink; it is made with `O_CREAT|O_EXCL|O_NOFOLLOW` and mode 0600.
///
/// Its reader (`parse`) is the package's for the fuzz target that feeds it damaged files.
package struct RefreshSideFile {
  /// What the vault file's name is followed by.
  static let suffix = "-refresh"

  /// The size the file is given: the largest token answer the HTTP client accepts (1 MiB,
  /// `URLSessionTransport.maxResponseBytes`), which bounds the tokens of one answer, plus room
  /// for sealing, record headers and the fields a refresh carries over from the stored tokens.
  static let capacity = (1 << 20) + (1 << 16)

  static let magic: [UInt8] = Array("ATR1".utf8)
  static let headerSize = 4 + 8 + 8 + 4

  /// One kept-aside refresh, its tokens still sealed.
  package struct Record: Equatable {
    let accountID: AccountID
    /// The account version the tokens replace: they are stored only over that version.
    let replacedVersion: Int64
    let sealed: [UInt8]

    package var bytes: [UInt8] {
      RefreshSideFile.magic + CellCodec.bigEndian(UInt64(bitPattern: accountID.rawValue))
        + CellCodec.bigEndian(UInt64(bitPattern: replacedVersion))
        + CellCodec.bigEndian(UInt32(sealed.count)) + sealed
    }
  }

  /// The file's path.
  let path: String

  /// True when the file holds a record: one open and one 4-byte read (false without a file).
  /// What every refresh pays for this file.
  func hasRecords() -> Bool {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var head = [UInt8](repeating: 0, count: Self.magic.count)
    let count = pread(descriptor, &head, head.count, 0)
    return count == head.count && head == Self.magic
  }

  /// The records in the file, in the order written, and where the used part ends.
  func records() throws(VaultError) -> (records: [Record], end: Int) {
    let descriptor = try openChecked(creating: false)
    guard descriptor >= 0 else { return ([], 0) }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: Self.capacity)
    var total = 0
    while total < bytes.count {
      let count = bytes.withUnsafeMutableBytes { buffer in
        buffer.baseAddress.map { pread(descriptor, $0 + total, buffer.count - total, off_t(total)) }
          ?? -1
      }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { throw storageError(Self.systemError(errno)) }
      if count == 0 { break }
      total += count
    }
    return Self.parse(bytes[0..<total])
  }

  /// The records at the start of `bytes`, up to the first place that does not hold one.
  package static func parse(_ bytes: ArraySlice<UInt8>) -> (records: [Record], end: Int) {
    var records: [Record] = []
    var offset = bytes.startIndex
    while offset + headerSize <= bytes.endIndex,
      Array(bytes[offset..<offset + 4]) == magic
    {
      let id = bytes[offset + 4..<offset + 12].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      let version = bytes[offset + 12..<offset + 20].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      let length = bytes[offset + 20..<offset + 24].reduce(0) { $0 << 8 | Int($1) }
      let start = offset + headerSize
      guard length <= bytes.endIndex - start else { break }
      records.append(
        Record(
          accountID: AccountID(Int64(bitPattern: id)), replacedVersion: Int64(bitPattern: version),
          sealed: Array(bytes[start..<start + length])))
      offset = start + length
    }
    return (records, offset - bytes.startIndex)
  }

  /// Creates the file if it is missing and makes sure its whole size is allocated; throws
  /// `noRoomForRefresh` when the disk cannot give it.
  func reserve() throws(VaultError) {
    var created = false
    let descriptor = try openChecked(creating: true, created: &created)
    defer { close(descriptor) }
    let status = VaultFaults.allocate(descriptor, size: Self.capacity, path: path)
    var problem = status == 0 ? nil : Self.systemError(status)
    // A new file's size and its name must be on disk before the space counts as secured.
    if problem == nil && created {
      if VaultFaults.sync(descriptor, path: path) != 0 {
        problem = Self.systemError(errno)
      } else {
        Self.syncFolder(of: path)
      }
    }
    if let problem {
      if created { unlink(path) }
      throw .noRoomForRefresh(path: path, detail: problem)
    }
  }

  /// Appends `record` after the records there are, within the allocated size, and syncs it.
  func append(_ record: Record) throws(VaultError) {
    let (_, end) = try records()
    let bytes = record.bytes
    guard end + bytes.count <= Self.capacity else {
      throw storageError("no room left in it for another refresh")
    }
    let descriptor = try openChecked(creating: false)
    guard descriptor >= 0 else { throw storageError("it is missing") }
    defer { close(descriptor) }
    try write(bytes, at: end, to: descriptor)
  }

  /// Overwrites the used part with zeros (the sealed tokens too) and syncs: no record is left.
  func wipe(upTo end: Int) throws(VaultError) {
    guard end > 0 else { return }
    let descriptor = try openChecked(creating: false)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    try write([UInt8](repeating: 0, count: end), at: 0, to: descriptor)
  }

  private func write(_ bytes: [UInt8], at offset: Int, to descriptor: Int32) throws(VaultError) {
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { buffer in
        buffer.baseAddress.map {
          VaultFaults.write(
            descriptor, $0 + written, buffer.count - written, at: offset + written, path: path)
        } ?? -1
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { throw storageError(Self.systemError(errno)) }
      written += count
    }
    guard VaultFaults.sync(descriptor, path: path) == 0 else {
      throw storageError(Self.systemError(errno))
    }
  }

  /// A descriptor of the file, read-write, checked to be a regular file of this user's with no
  /// group or other permission; -1 when it does not exist and `creating` is false.
  private func openChecked(creating: Bool) throws(VaultError) -> Int32 {
    var created = false
    return try openChecked(creating: creating, created: &created)
  }

  private func openChecked(creating: Bool, created: inout Bool) throws(VaultError) -> Int32 {
    var descriptor = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
    if descriptor < 0 && errno == ENOENT {
      guard creating else { return -1 }
      descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
      created = descriptor >= 0
    }
    guard descriptor >= 0 else {
      if errno == ELOOP { throw storageError(Self.notOurs) }
      throw storageError(Self.systemError(errno))
    }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
      info.st_uid == geteuid(), info.st_mode & 0o077 == 0
    else {
      close(descriptor)
      throw storageError(Self.notOurs)
    }
    return descriptor
  }

  private static let notOurs =
    "it is not a regular file of yours with mode 0600 (a symlink, or another user's file): "
    + "authtui keeps refreshed tokens there; move it away"

  private func storageError(_ detail: String) -> VaultError {
    .storage(path: path, detail: detail)
  }

  private static func syncFolder(of path: String) {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = fsync(descriptor)
    close(descriptor)
  }

  static func systemError(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(validatingCString: text) ?? "error \(code)"
  }
}
