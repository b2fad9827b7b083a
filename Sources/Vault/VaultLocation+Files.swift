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
    let mode = info.st_mode & 0o777
    return mode & 0o077 == 0 ? nil : VaultPermissionProblem(path: fileURL.path, mode: mode)
  }

  /// The type (`S_IFMT` bits) of what is at the vault path when it is not a regular file
  /// (links followed: a folder, a FIFO, a device); nil for a regular file or nothing.
  var nonFileType: mode_t? {
    var info = stat()
    guard stat(fileURL.path, &info) == 0, info.st_mode & S_IFMT != S_IFREG else { return nil }
    return info.st_mode & S_IFMT
  }

  /// Why a vault cannot be created here: something is at the path already (a vault, or a
  /// folder, a FIFO…); nil when the path is free.
  public var creationProblem: VaultError? {
    guard fileExists else { return nil }
    if let type = nonFileType { return .notAFile(path: fileURL.path, type: type) }
    return .alreadyExists(path: fileURL.path)
  }

  /// True when something exists at the vault path.
  var fileExists: Bool {
    var info = stat()
    return stat(fileURL.path, &info) == 0
  }

  /// The permission bits of the vault file (0 when it does not exist).
  var fileMode: UInt32 {
    var info = stat()
    guard stat(fileURL.path, &info) == 0 else { return 0 }
    return UInt32(info.st_mode & 0o777)
  }

  /// Creates the missing folders (0700) and an empty vault file (0600), refusing an existing one.
  ///
  /// The modes are given to `mkdir` and `open` themselves rather than fixed by a `chmod` after:
  /// there is no moment in which the file exists with looser permissions, whatever the umask
  /// (a umask can only remove bits).
  func createFile() throws(VaultError) {
    let path = fileURL.path
    for prefix in PathText.chain(to: directoryURL.path) {
      if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
        throw .cannotCreate(path: prefix, reason: String(cString: strerror(errno)))
      }
    }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      if errno == EEXIST { throw creationProblem ?? .alreadyExists(path: path) }
      throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
    }
    close(descriptor)
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
