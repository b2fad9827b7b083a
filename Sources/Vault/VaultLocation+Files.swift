import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension VaultLocation {
  /// The vault file.
  public var fileURL: URL { URL(fileURLWithPath: path) }

  /// The folder holding the vault, created 0700.
  public var directoryURL: URL { fileURL.deletingLastPathComponent() }

  /// Resolves the location from an explicit option and the environment.
  public static func resolve(
    explicitPath: String?, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> VaultLocation {
    // Never nil: `homeFolder` always names a folder (the root at worst).
    resolve(explicitPath: explicitPath, variable: { environment[$0] }, homeFolder: homeFolder)
      ?? VaultLocation(path: "/.local/share/authtui/vault.db")
  }

  /// This user's home folder from the password database, for when `HOME` is not set:
  /// `FileManager` asks it as `NSHomeDirectory` does.
  private static func homeFolder() -> String {
    let path = FileManager.default.homeDirectoryForCurrentUser.path
    return path.isEmpty ? "/" : path
  }

  /// The permission problem of an existing vault file, or nil when only its owner can read it.
  public func permissionProblem() -> VaultPermissionProblem? {
    var info = stat()
    guard stat(fileURL.path, &info) == 0 else { return nil }
    return Self.permissionProblem(info, path: fileURL.path)
  }

  private static func permissionProblem(_ info: stat, path: String) -> VaultPermissionProblem? {
    let mode = info.st_mode & 0o777
    return mode & 0o077 == 0 ? nil : VaultPermissionProblem(path: path, mode: mode)
  }

  /// Why the vault file cannot be opened as it is, from one `stat` (links followed): nothing
  /// there, something other than a regular file (a folder, a FIFO, a device: said before its
  /// permissions, a folder's 0755 being no reason to run chmod), or, with
  /// `checkingPermissions`, a file others can read or write. Nil when it can be opened.
  func openingProblem(checkingPermissions: Bool) -> VaultError? {
    let path = fileURL.path
    var info = stat()
    guard stat(path, &info) == 0 else { return .noVault(path: path) }
    guard info.st_mode & S_IFMT == S_IFREG else {
      return .notAFile(path: path, type: info.st_mode & S_IFMT)
    }
    guard checkingPermissions else { return nil }
    return Self.permissionProblem(info, path: path).map { .unsafePermissions($0) }
  }

  /// Why a vault cannot be created here: something is at the path already (a vault, a file
  /// that is no vault, or a folder, a FIFO…); nil when the path is free.
  public var creationProblem: VaultError? {
    switch openingProblem(checkingPermissions: false) {
    case .noVault?: return nil
    case let problem?: return problem
    case nil:
      // An empty file of this user's own (`mktemp`'s) is where the vault goes: `createFile`
      // takes it. A file that does not even start as SQLite's do is no vault to change the
      // passphrase of.
      if Self.emptyOwnFile(fileURL.path) { return nil }
      if let reason = Self.emptyFileRefusal(fileURL.path) {
        return .cannotCreate(path: fileURL.path, reason: reason)
      }
      return Self.startsAsSQLite(fileURL.path) == false
        ? .notAVault(path: fileURL.path) : .alreadyExists(path: fileURL.path)
    }
  }

  /// Why the empty file at `path` is not taken (`emptyOwnFile`): nil when it is not empty.
  private static func emptyFileRefusal(_ path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0, info.st_size == 0 else { return nil }
    var own = stat()
    if lstat(path, &own) == 0, own.st_mode & S_IFMT == S_IFLNK {
      return "it is a symbolic link to an empty file, and a vault is made only in a file the path"
        + " names itself"
    }
    if info.st_uid != geteuid() { return "it is an empty file of another user's" }
    return info.st_nlink > 1 ? "it is an empty file with other names (hard links)" : nil
  }

  /// Whether `path` itself (not through a symbolic link) is an empty regular file of this
  /// user's, with no other name: one `vault init` may make the vault in.
  private static func emptyOwnFile(_ path: String) -> Bool {
    var info = stat()
    guard lstat(path, &info) == 0 else { return false }
    return isEmptyOwnFile(info)
  }

  private static func isEmptyOwnFile(_ info: stat) -> Bool {
    info.st_mode & S_IFMT == S_IFREG && info.st_size == 0 && info.st_uid == geteuid()
      && info.st_nlink == 1
  }

  /// Whether the file at `path` starts with SQLite's 16-byte header string; nil when fewer
  /// bytes than that can be read.
  private static func startsAsSQLite(_ path: String) -> Bool? {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: 16)
    guard read(descriptor, &bytes, bytes.count) == bytes.count else { return nil }
    return bytes == Array("SQLite format 3\u{0}".utf8)
  }

  /// The permission bits of the vault file (0 when it does not exist).
  var fileMode: UInt32 {
    var info = stat()
    guard stat(fileURL.path, &info) == 0 else { return 0 }
    return UInt32(info.st_mode & 0o777)
  }

  /// Creates the missing folders (0700) and an empty vault file (0600), refusing an existing
  /// one, but for an empty regular file of this user's (`mktemp`'s), not a symbolic link,
  /// which is made 0600 and taken: true then (a failed creation empties it again rather than
  /// removing it).
  ///
  /// The modes are given to `mkdir` and `open` themselves rather than fixed by a `chmod` after:
  /// there is no moment in which the file exists with looser permissions, whatever the umask
  /// (a umask can only remove bits). A file taken is empty until its `fchmod`.
  @discardableResult
  func createFile() throws(VaultError) -> Bool {
    let path = fileURL.path
    for prefix in PathText.chain(to: directoryURL.path) {
      if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
        throw .cannotCreate(path: prefix, reason: String(cString: strerror(errno)))
      }
    }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      if errno == EEXIST {
        if try takeEmptyFile() { return true }
        throw creationProblem ?? .alreadyExists(path: path)
      }
      throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
    }
    close(descriptor)
    return false
  }

  /// Makes the empty file of this user's at the path 0600, checked again on the open file
  /// (`O_NOFOLLOW`: not a link); false when it is not one.
  private func takeEmptyFile() throws(VaultError) -> Bool {
    let path = fileURL.path
    let descriptor = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, Self.isEmptyOwnFile(info) else { return false }
    guard fchmod(descriptor, 0o600) == 0 else {
      throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
    }
    return true
  }

  /// Empties the file `createFile` took again and removes SQLite's companions (after a
  /// creation that failed halfway).
  func emptyTakenFile() {
    truncate(fileURL.path, 0)
    for suffix in ["-wal", "-shm", "-journal"] {
      unlink(fileURL.path + suffix)
    }
  }

  /// Why this process cannot write the vault, from the folder out: a read-only file system, a
  /// folder it may not write in (SQLite makes its `-wal` and `-shm` there), a file it may not
  /// write; nil when it can (or the file is not there).
  public func writeBlock() -> VaultWriteBlock? {
    let folder = directoryURL.path
    var system = statvfs()
    if statvfs(folder, &system) == 0, system.f_flag & UInt(ST_RDONLY) != 0 {
      return .readOnlyFileSystem
    }
    if faccessat(AT_FDCWD, folder, W_OK, AT_EACCESS) != 0, errno != ENOENT {
      return errno == EROFS ? .readOnlyFileSystem : .readOnlyFolder(folder)
    }
    if faccessat(AT_FDCWD, fileURL.path, W_OK, AT_EACCESS) != 0, errno != ENOENT {
      return errno == EROFS ? .readOnlyFileSystem : .readOnlyFile
    }
    return nil
  }

  /// Whether the vault is read as an immutable snapshot (`SQLiteConnection`'s `immutable`):
  /// its folder cannot be written, so SQLite could not make the `-shm` file a WAL reader needs,
  /// and there is no `-wal` file, so every committed transaction is in the file itself. A
  /// `-wal` there (another process has the vault open, or left one behind) is read with it,
  /// through the `-shm` beside it, as usual.
  func readsAsSnapshot() -> Bool {
    switch writeBlock() {
    case .readOnlyFolder?, .readOnlyFileSystem?:
      return access(fileURL.path + "-wal", F_OK) != 0 && errno == ENOENT
    case .readOnlyFile?, nil:
      return false
    }
  }

  /// Removes the vault file and SQLite's companions (after a creation that failed halfway).
  func removeFiles() {
    for suffix in ["", "-wal", "-shm", "-journal"] {
      unlink(fileURL.path + suffix)
    }
  }
}

/// A vault file that someone other than its owner can read or write.
public struct VaultPermissionProblem: Error, Equatable, Sendable, CustomStringConvertible {
  /// The vault path.
  public let path: String
  /// The permission bits found.
  public let mode: mode_t

  /// Describes the problem of the file at `path` with permission bits `mode`.
  public init(path: String, mode: mode_t) {
    self.path = path
    self.mode = mode
  }

  /// The message, including the exact command that fixes it.
  public var description: String {
    let octal = String(mode, radix: 8)
    return
      "the vault \(path) is readable or writable by other users (mode 0\(octal)); "
      + "run `chmod 600 '\(path)'` and try again"
  }
}

/// Why a vault cannot be written (`VaultLocation.writeBlock()`).
public enum VaultWriteBlock: Equatable, Sendable {
  /// The file system holding it is mounted read-only.
  case readOnlyFileSystem
  /// Its folder (this path) cannot be written in: SQLite cannot make its journal files there.
  case readOnlyFolder(String)
  /// The file itself cannot be written.
  case readOnlyFile
}
