import Foundation
import Locations

#if canImport(Glibc)
  import Glibc
#endif

/// How `EnvFile.write` replaces the user's file, as git's `lockfile.c` does: a symlink is
/// followed to its target (so a dotfiles link survives), anything but a regular file of the
/// user's is refused before a byte is read or written, and the new content goes to a file
/// beside the target (unnamed, `O_TMPFILE`, until it is complete; mode 0600), synced, named,
/// renamed over the target, and the folder synced, so a reader sees the old file or the new
/// one, never half, and a killed export leaves at most one file, which the next one removes
/// (`replace`).
///
/// Only `lstat`/`stat` look at the path before it is known to be a regular file: opening a FIFO
/// would block until a writer comes, and "writing" a device node by renaming over it would
/// replace `/dev/null` for the whole system when run as root.
extension EnvFile {
  /// The regular file a write replaces, or creates.
  struct Destination {
    /// The file to replace: the path given, or the end of its chain of symlinks.
    let path: String
    /// The file there now (nil: it is created).
    let existing: FileIdentity?
  }

  /// Which file a path named when it was looked at, to notice that it changed since.
  struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    init(_ info: stat) {
      device = UInt64(info.st_dev)
      inode = UInt64(info.st_ino)
    }
  }

  /// Checks, changing nothing, that `path` can receive an env file: a regular file of this user's
  /// (or a symlink to one), or a name in an existing folder. `export` calls it before it unlocks
  /// the vault, so a wrong path costs neither a passphrase nor a token refresh.
  public static func checkDestination(_ path: String) throws(AccountsError) {
    _ = try destination(of: path)
  }

  /// Where a write to `path` goes, or why it must not happen.
  static func destination(of path: String) throws(AccountsError) -> Destination {
    guard !path.isEmpty else {
      throw .envFile(path: "\"\"", reason: "the path is empty; give the path of an env file")
    }
    var info = stat()
    guard lstat(path, &info) == 0 else {
      guard errno == ENOENT else { throw .envFile(path: path, reason: systemError()) }
      try requireFolder(of: path, named: path)
      return Destination(path: path, existing: nil)
    }
    guard fileType(info) == S_IFLNK else {
      try requireUsable(info, named: path, description: "it is")
      return Destination(path: path, existing: FileIdentity(info))
    }
    let link = linkText(path)
    guard let resolved = realpath(path, nil) else {
      switch errno {
      case ENOENT:
        // A link the kernel follows to something with no path (`/dev/stdout` is
        // `/proc/self/fd/1`, which is `pipe:[…]` under a pipe): what it is, not "dangling".
        var followed = stat()
        if stat(path, &followed) == 0 {
          let type = followed.st_mode & S_IFMT
          let what =
            [S_IFIFO: "a pipe", S_IFSOCK: "a socket", S_IFREG: "a deleted file"][type]
            ?? "\(FileType.name(of: type)) with no name"
          throw .envFile(
            path: path,
            reason: "it is a symlink to \(link), which is \(what), not a regular file: export "
              + "writes files only (`authtui token ACCOUNT` prints the token on standard "
              + "output); give the path of an env file")
        }
        throw .envFile(
          path: path,
          reason: "it is a symlink to \(link), which does not exist (a dangling link): create "
            + "the file it should point to, or give the path of an env file")
      case ELOOP:
        throw .envFile(
          path: path,
          reason: "it is a symlink that never reaches a file (a loop, through \(link)): fix the "
            + "link, or give the path of an env file")
      default:
        throw .envFile(path: path, reason: "it is a symlink to \(link): \(systemError())")
      }
    }
    let target = String(cString: resolved)
    free(resolved)
    guard lstat(target, &info) == 0 else {
      throw .envFile(path: path, reason: "its target \(target): \(systemError())")
    }
    try requireUsable(info, named: path, description: "it is a symlink to \(target), which is")
    return Destination(path: target, existing: FileIdentity(info))
  }

  /// The UTF-8 text of the existing file, read through a descriptor that is checked to be the
  /// very regular file `destination` looked at (a swap for a symlink or a FIFO in between is
  /// refused, and `O_NONBLOCK` keeps even that open from waiting on a FIFO).
  static func text(of file: FileIdentity, at path: String, named shown: String)
    throws(AccountsError) -> String
  {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw .envFile(path: shown, reason: "\(systemError()); it may have changed: try again")
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, fileType(info) == S_IFREG, FileIdentity(info) == file
    else {
      throw .envFile(
        path: shown, reason: "it was replaced while authtui was reading it; try again")
    }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = read(descriptor, &buffer, buffer.count)
      if count < 0 {
        if errno == EINTR { continue }
        throw .envFile(path: shown, reason: systemError())
      }
      if count == 0 { break }
      bytes += buffer[0..<count]
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw .envFile(path: shown, reason: "the file is not UTF-8 text; choose another --env-file")
    }
    return text
  }

  /// Writes `contents` to a new 0600 file beside the destination and renames it over it.
  ///
  /// The new content first goes to an unnamed file (`O_TMPFILE`) in the target's folder, which
  /// a kill leaves nothing of; only once it is complete and synced is it given a name, one fixed
  /// name per target (`temporaryPath(for:)`), and renamed over the target. So a kill can leave
  /// at most that one file, between the naming and the rename, and the next export to the same
  /// target removes it. A file system that refuses `O_TMPFILE` gets the named file from the
  /// start (`O_CREAT|O_EXCL|O_NOFOLLOW`, same name).
  static func replace(_ destination: Destination, named shown: String, with contents: String)
    throws(AccountsError)
  {
    let target = URL(fileURLWithPath: destination.path)
    let folder = target.deletingLastPathComponent().path
    let temporary = temporaryPath(for: destination.path)
    try removeLeftover(temporary, named: shown)
    var named = false
    var descriptor = open(folder, __O_TMPFILE | O_DIRECTORY | O_WRONLY | O_CLOEXEC, mode_t(0o600))
    if descriptor < 0 && [EOPNOTSUPP, EISDIR, EINVAL].contains(errno) {
      descriptor = try createTemporaryFile(temporary, in: folder, named: shown)
      named = true
    } else if descriptor < 0 {
      throw .envFile(path: shown, reason: unwritableFolder(folder))
    }
    var failure = write(contents, to: descriptor)
    if failure == nil && !named {
      failure = link(descriptor, to: temporary, named: shown)
      named = failure == nil
    }
    if close(descriptor) != 0 && failure == nil { failure = systemError() }
    if failure == nil && !isUnchanged(destination) {
      failure = "it was replaced while authtui was writing it; try again"
    }
    if failure == nil && rename(temporary, destination.path) != 0 {
      failure = systemError()
    }
    if let failure {
      if named { unlink(temporary) }
      throw .envFile(path: shown, reason: failure)
    }
    let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folderDescriptor >= 0 {
      fsync(folderDescriptor)
      close(folderDescriptor)
    }
  }

  /// The one name the new content of `target` has between its naming and its rename:
  /// `.NAME.authtui.tmp` beside it.
  static func temporaryPath(for target: String) -> String {
    let url = URL(fileURLWithPath: target)
    return url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".authtui.tmp"
  }

  /// Writes all of `contents`, sets mode 0600 and syncs; the failure's text, or nil.
  private static func write(_ contents: String, to descriptor: Int32) -> String? {
    var bytes = Array(contents.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        return systemError()
      }
      bytes = bytes.dropFirst(written)
    }
    // The umask may have taken bits from 0600; the documented mode is exactly 0600.
    if fchmod(descriptor, 0o600) != 0 || fsync(descriptor) != 0 { return systemError() }
    return nil
  }

  /// Gives the unnamed file `descriptor` the name `path` (through `/proc/self/fd`, the way
  /// open(2) documents for unprivileged processes); a leftover there is removed first.
  private static func link(_ descriptor: Int32, to path: String, named shown: String) -> String? {
    for attempt in 0..<2 {
      if linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 {
        return nil
      }
      // Another export to the same file named its content there a moment ago.
      guard errno == EEXIST, attempt == 0 else { break }
      do {
        try removeLeftover(path, named: shown)
      } catch {
        return "\(path) is in the way; move it away"
      }
    }
    return systemError()
  }

  /// Removes what an export killed between naming its content and the rename left at `path`:
  /// only a regular 0600 file of this user's, looked at without following a link; anything else
  /// there is refused, untouched.
  private static func removeLeftover(_ path: String, named shown: String) throws(AccountsError) {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      guard errno == ENOENT else { throw .envFile(path: shown, reason: systemError()) }
      return
    }
    guard fileType(info) == S_IFREG, info.st_uid == geteuid(), info.st_mode & 0o7777 == 0o600
    else {
      throw .envFile(
        path: shown,
        reason: "\(path), where authtui puts the new content before renaming it over the file, "
          + "holds something authtui did not leave there (\(FileType.name(of: info.st_mode)), or not a "
          + "0600 file of yours): move it away")
    }
    guard unlink(path) == 0 || errno == ENOENT else {
      throw .envFile(path: shown, reason: systemError())
    }
  }

  /// A new file at `path` in `folder`, made with `O_CREAT|O_EXCL|O_NOFOLLOW` and mode 0600: it
  /// cannot be a file or link someone put there, and nobody else can read it, even before the
  /// token is in.
  private static func createTemporaryFile(_ path: String, in folder: String, named shown: String)
    throws(AccountsError) -> Int32
  {
    let descriptor = open(
      path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
    guard descriptor >= 0 else {
      throw .envFile(path: shown, reason: unwritableFolder(folder))
    }
    return descriptor
  }

  private static func unwritableFolder(_ folder: String) -> String {
    "\(systemError()) (the folder \(folder) must be writable: the file is replaced by renaming "
      + "a new one over it)"
  }

  /// True when the destination is still the file (or the absence of one) `destination` saw.
  private static func isUnchanged(_ destination: Destination) -> Bool {
    var info = stat()
    guard lstat(destination.path, &info) == 0 else {
      return errno == ENOENT && destination.existing == nil
    }
    return fileType(info) == S_IFREG && FileIdentity(info) == destination.existing
  }

  /// Refuses what is not a regular file owned by this user; `description` leads the reason
  /// ("it is", "it is a symlink to T, which is").
  private static func requireUsable(_ info: stat, named shown: String, description: String)
    throws(AccountsError)
  {
    let type = fileType(info)
    guard type == S_IFREG else {
      // A terminal (`/dev/stdout` at one, `/dev/tty`) is where `token` writes.
      let stream =
        type == S_IFCHR
        ? "; export writes files only (`authtui token ACCOUNT` prints the token on standard "
          + "output)" : ""
      throw .envFile(
        path: shown,
        reason: "\(description) \(FileType.name(of: type)), not a regular file: give the path "
          + "of an env file" + stream)
    }
    let user = geteuid()
    guard info.st_uid == user else {
      throw .envFile(
        path: shown,
        reason: "\(description) a file of another user (uid \(info.st_uid); you are uid \(user)), "
          + "and replacing it would take it from them: give the path of an env file of yours")
    }
  }

  /// Refuses a new file's path whose folder does not exist.
  private static func requireFolder(of path: String, named shown: String) throws(AccountsError) {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    var info = stat()
    guard stat(folder, &info) == 0, fileType(info) == S_IFDIR else {
      throw .envFile(
        path: shown,
        reason: "the folder \(folder) does not exist; create it, or choose another --env-file")
    }
  }

  private static func fileType(_ info: stat) -> mode_t { info.st_mode & S_IFMT }

  /// What the symlink at `path` says, for messages.
  private static func linkText(_ path: String) -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count >= 0 else { return "an unreadable target" }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The text of `errno`.
  static func systemError() -> String {
    guard let text = strerror(errno) else { return "error \(errno)" }
    return String(validatingCString: text) ?? "error \(errno)"
  }
}
