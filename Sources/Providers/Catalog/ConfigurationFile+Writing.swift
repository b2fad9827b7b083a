import Foundation
import JSON

#if canImport(Glibc)
  import Glibc
#endif

/// How authtui replaces one of the user's configuration files (a provider file the UI's setup
/// form completes): only a regular file of this user's, never through a symbolic link, and
/// atomically, as git's `lockfile.c` does.
extension ConfigurationFile {
  /// Which file a path named when it was looked at, to notice a swap before the rename.
  struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64
  }

  /// Why a configuration file was not written: the rest of a sentence after its name.
  struct WriteFailure: Error {
    let reason: String
  }

  /// The regular file at `path`, or nil when nothing is there; anything else is refused with
  /// what to do, before it is opened: a link (the file it leads to may not be the user's
  /// configuration at all), a FIFO (opening one waits for a writer), a device, a folder.
  static func existingFile(at path: String) throws(WriteFailure) -> FileIdentity? {
    var status = stat()
    guard lstat(path, &status) == 0 else {
      if errno == ENOENT { return nil }
      throw WriteFailure(reason: String(cString: strerror(errno)))
    }
    let kind: String
    switch status.st_mode & S_IFMT {
    case S_IFREG where status.st_uid == geteuid():
      return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    case S_IFREG:
      // Replacing it would take it from its owner.
      throw WriteFailure(
        reason: "it belongs to uid \(status.st_uid), not to you; edit it as its owner, or "
          + "remove it")
    case S_IFLNK: kind = "a symbolic link"
    case S_IFIFO: kind = "a FIFO (named pipe)"
    case S_IFCHR, S_IFBLK: kind = "a device"
    case S_IFDIR: kind = "a folder"
    case S_IFSOCK: kind = "a socket"
    default: kind = "not a regular file"
    }
    throw WriteFailure(
      reason: "it is \(kind); authtui writes only a regular file there: replace it with one "
        + "(or remove it), then try again")
  }

  /// Writes `text` to a new 0600 file beside `path` (`O_CREAT|O_EXCL|O_NOFOLLOW`), syncs it,
  /// and renames it over `path` if that is still the file `expected` names (nil: still
  /// nothing), then syncs the folder.
  static func replace(_ path: String, expecting expected: FileIdentity?, with text: String)
    throws(WriteFailure)
  {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    let (temporary, descriptor) = try temporaryFile(beside: path)
    var problem: String?
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty && problem == nil {
      let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno != EINTR { problem = String(cString: strerror(errno)) }
      } else {
        bytes = bytes.dropFirst(count)
      }
    }
    // The umask may have taken bits away; the file is exactly 0600.
    if problem == nil && (fchmod(descriptor, 0o600) != 0 || fsync(descriptor) != 0) {
      problem = String(cString: strerror(errno))
    }
    if close(descriptor) != 0 && problem == nil { problem = String(cString: strerror(errno)) }
    if problem == nil && currentIdentity(path) != expected {
      problem = "it changed while authtui was writing it; try again"
    }
    if problem == nil && rename(temporary, path) != 0 {
      problem = String(cString: strerror(errno))
    }
    if let problem {
      unlink(temporary)
      throw WriteFailure(reason: "it cannot be written (\(problem))")
    }
    let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folderDescriptor >= 0 {
      fsync(folderDescriptor)
      close(folderDescriptor)
    }
  }

  /// What `replace` would refuse at `path`, found before anything else is done (a request
  /// whose result the file is to hold): anything but a regular file of this user's there
  /// (`existingFile`), and a folder no file can be made in (read-only, another user's), found
  /// by making the temporary file `replace` makes and removing it at once. The same reasons as
  /// `replace` gives. Returns the file there, nil when there is none.
  @discardableResult
  static func checkReplaceable(_ path: String) throws(WriteFailure) -> FileIdentity? {
    let existing = try existingFile(at: path)
    let (temporary, descriptor) = try temporaryFile(beside: path)
    close(descriptor)
    unlink(temporary)
    return existing
  }

  /// A new, empty 0600 file beside `path` (`.NAME.RANDOM.tmp`, `O_CREAT|O_EXCL|O_NOFOLLOW`),
  /// opened for writing.
  private static func temporaryFile(beside path: String) throws(WriteFailure)
    -> (path: String, descriptor: Int32)
  {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    for _ in 0..<16 {
      let temporary =
        "\(folder)/.\(url.lastPathComponent).\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).tmp"
      let descriptor = open(
        temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      if descriptor >= 0 { return (temporary, descriptor) }
      if errno != EEXIST {
        throw WriteFailure(reason: "it cannot be written (\(String(cString: strerror(errno))))")
      }
    }
    throw WriteFailure(reason: "no temporary file could be made in \(folder)")
  }

  /// The regular file at `path` now; nil when there is none (or something else is there,
  /// which then differs from any file looked at before).
  private static func currentIdentity(_ path: String) -> FileIdentity? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    guard status.st_mode & S_IFMT == S_IFREG else {
      return FileIdentity(device: .max, inode: .max)
    }
    return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
  }
}

extension ConfigurationFile {
  /// Changes the JSON object in the file at `url` as `change` says and writes it back with
  /// `replace`: what a writer of one of the user's files (a provider file's setup, config.json's
  /// `git` entry) does, keeping every member it does not change in its place. The file's
  /// folder is made (0700) when missing; no file starts as an empty object (`change` may fill
  /// it in). A path that is not a regular file of this user's, a file that is not a JSON
  /// object, and a file swapped meanwhile are refused (`WriteFailure`) and left as they are.
  static func editObject(
    at url: URL,
    _ change: (_ members: inout [(String, OrderedJSON)], _ isNew: Bool) throws(WriteFailure)
      -> Void
  ) throws(WriteFailure) {
    let folder = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw WriteFailure(
        reason: "its folder cannot be created (\(error.localizedDescription)); check "
          + ConfigurationLocation.display(folder))
    }
    let existing = try existingFile(at: url.path)
    var members: [(String, OrderedJSON)] = []
    if existing != nil {
      let text: String
      do {
        text = try read(url)
      } catch {
        throw WriteFailure(reason: error.description)
      }
      let document: JSONDocument
      do {
        document = try JSONParser.parse(text)
      } catch {
        throw WriteFailure(reason: "\(error); fix the file (or remove it), then try again")
      }
      guard case .object(let read) = document.ordered else {
        throw WriteFailure(
          reason: "it is not a JSON object; fix the file (or remove it), then try again")
      }
      members = read
    }
    try change(&members, existing == nil)
    try replace(url.path, expecting: existing, with: OrderedJSON.object(members).prettyText + "\n")
  }

  /// Sets the member `name` where it is, or adds it at the end.
  static func set(
    _ name: String, _ value: OrderedJSON, in members: inout [(String, OrderedJSON)]
  ) {
    if let index = members.firstIndex(where: { $0.0 == name }) {
      members[index].1 = value
    } else {
      members.append((name, value))
    }
  }
}
