import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Reads one of the user's configuration files (a provider file, `config.json`, a theme) without
/// trusting what is at its path.
///
/// Whatever sits there is looked at before it is opened: a FIFO is never opened (reading one
/// blocks until someone writes), a directory, socket or device is named as such, a symbolic link
/// that loops or points nowhere says so, and a file over `sizeLimit` is refused from its size
/// alone, without being read. The file is opened with `O_NONBLOCK` and checked again through the
/// open descriptor, so a FIFO swapped in between the check and the open cannot block either.
public enum ConfigurationFile {
  /// The largest configuration file authtui reads: 256 KiB. A provider file is well under
  /// 2 KiB and a theme under 4 KiB; anything this large is not what the user meant to put there.
  public static let sizeLimit = 256 * 1024

  /// The text of the file at `url`, or why it cannot be used.
  public static func read(_ url: URL) throws(ConfigurationFileError) -> String {
    try read(path: url.path)
  }

  /// The text of the file at `path`, or why it cannot be used.
  public static func read(path: String) throws(ConfigurationFileError) -> String {
    var status = stat()
    guard lstat(path, &status) == 0 else { throw failure(errno) }
    if status.st_mode & S_IFMT == S_IFLNK {
      guard stat(path, &status) == 0 else {
        let code = errno
        if code == ENOENT { throw .danglingSymlink(target: linkTarget(path)) }
        throw failure(code)
      }
    }
    try check(status)
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    guard descriptor >= 0 else { throw failure(errno) }
    defer { close(descriptor) }
    // What was opened may not be what was looked at: check the open file itself.
    guard fstat(descriptor, &status) == 0 else { throw failure(errno) }
    try check(status)
    let bytes = try readAll(descriptor)
    guard let text = String(validating: bytes, as: UTF8.self) else { throw .notUTF8 }
    return text
  }

  /// Refuses anything but a regular file of at most `sizeLimit` bytes.
  private static func check(_ status: stat) throws(ConfigurationFileError) {
    switch status.st_mode & S_IFMT {
    case S_IFREG:
      guard status.st_size <= sizeLimit else {
        throw .tooLarge(size: Int64(status.st_size), limit: sizeLimit)
      }
    case S_IFDIR: throw .notAFile(.directory)
    case S_IFIFO: throw .notAFile(.fifo)
    case S_IFSOCK: throw .notAFile(.socket)
    case S_IFCHR, S_IFBLK: throw .notAFile(.device)
    default: throw .notAFile(.other)
    }
  }

  /// Reads to the end, refusing a file that grows past the limit while it is read.
  private static func readAll(_ descriptor: Int32) throws(ConfigurationFileError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure(errno)
      }
      if count == 0 { return bytes }
      bytes += chunk[..<count]
      guard bytes.count <= sizeLimit else {
        throw .tooLarge(size: Int64(bytes.count), limit: sizeLimit)
      }
    }
  }

  private static func failure(_ code: Int32) -> ConfigurationFileError {
    switch code {
    case ENOENT: return .missing
    case ELOOP: return .symlinkLoop
    case EACCES, EPERM: return .permissionDenied
    default: return .unreadable(reason: String(cString: strerror(code)))
    }
  }

  private static func linkTarget(_ path: String) -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count > 0 else { return "a missing file" }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

/// Why a configuration file was not read; `description` is the rest of a sentence that starts
/// with the file's name (`providers/x.json: is a directory, not a file; …`).
public enum ConfigurationFileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What a path holds instead of a regular file.
  public enum Kind: Sendable, Equatable {
    case directory, fifo, socket, device, other
  }

  /// Nothing is at the path.
  case missing
  /// Something other than a regular file is at the path.
  case notAFile(Kind)
  /// The path is a symbolic link that leads back to itself.
  case symlinkLoop
  /// The path is a symbolic link to something that does not exist.
  case danglingSymlink(target: String)
  /// The file is larger than `limit` bytes.
  case tooLarge(size: Int64, limit: Int)
  /// The file's permissions do not let this user read it.
  case permissionDenied
  /// Opening or reading failed for another reason (the system's words).
  case unreadable(reason: String)
  /// The bytes are not UTF-8.
  case notUTF8

  public var description: String {
    switch self {
    case .missing: return "does not exist"
    case .notAFile(.directory):
      return "is a directory, not a file; remove it or give it a name that does not end in the "
        + "file's extension"
    case .notAFile(.fifo):
      return "is a FIFO (named pipe), not a file; authtui does not read from pipes: replace it "
        + "with a regular file"
    case .notAFile(.socket): return "is a socket, not a file; replace it with a regular file"
    case .notAFile(.device): return "is a device, not a file; replace it with a regular file"
    case .notAFile(.other): return "is not a regular file; replace it with one"
    case .symlinkLoop:
      return "is a symbolic link that loops back on itself; point it at a real file"
    case .danglingSymlink(let target):
      return "is a symbolic link to \(target), which does not exist; fix the link or remove it"
    case .tooLarge(let size, let limit):
      return "is \(Self.size(size)), over the \(Self.size(Int64(limit))) limit for "
        + "configuration files; check that this is the right file"
    case .permissionDenied:
      return "cannot be read (permission denied); check its permissions (chmod u+r)"
    case .unreadable(let reason): return "cannot be read (\(reason))"
    case .notUTF8: return "is not UTF-8 text; save it as UTF-8"
    }
  }

  /// `1.5 MiB`, `256 KiB`, `900 bytes`.
  static func size(_ bytes: Int64) -> String {
    if bytes >= 1024 * 1024 {
      let tenths = (bytes * 10) / (1024 * 1024)
      return "\(tenths / 10).\(tenths % 10) MiB"
    }
    if bytes >= 1024 { return "\(bytes / 1024) KiB" }
    return "\(bytes) bytes"
  }
}
