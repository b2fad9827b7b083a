import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension VaultLocation {
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
    var prefix = ""
    for component in directoryURL.path.split(separator: "/") {
      prefix += "/" + component
      if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
        throw .cannotCreate(path: prefix, reason: String(cString: strerror(errno)))
      }
    }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      if errno == EEXIST { throw .alreadyExists(path: path) }
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
