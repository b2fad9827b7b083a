#if canImport(Glibc)
  import Glibc
#endif

/// Paths as text, without `URL`: what the front of `authtui` needs to name the vault and the
/// agent's socket in a few microseconds (building a `URL` and standardizing it costs more than
/// the rest of a `token` answer), in a module that links no Foundation at all.
package enum PathText {
  /// `path` made absolute against the working folder, with `.`, `..` and repeated slashes
  /// removed from the text (no link is followed): `URL.standardizedFileURL.path`'s result.
  ///
  /// Paths are read byte by byte, never as characters: a slash followed by a combining mark
  /// (`/\u{349}o`) is one `Character`, and `hasPrefix("/")` or `split(separator: "/")` would not
  /// see the slash at all.
  package static func standardized(_ path: String) -> String {
    if isStandard(path) { return path }
    let absolute = isAbsolute(path) ? path : workingFolder() + "/" + path
    var components: [Substring.UTF8View] = []
    for component in absolute.utf8.split(separator: slash) {
      if component.elementsEqual(".".utf8) { continue }
      if component.elementsEqual("..".utf8) {
        _ = components.popLast()
        continue
      }
      components.append(component)
    }
    // Cut at an ASCII slash, each component is whole UTF-8.
    return "/" + components.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/")
  }

  /// True when `path` starts with a slash (its first byte, whatever follows it).
  package static func isAbsolute(_ path: String) -> Bool {
    path.utf8.first == slash
  }

  private static let slash = UInt8(ascii: "/")

  /// True when `path` is absolute and has no empty, `.` or `..` component: most paths, read
  /// without building an array.
  private static func isStandard(_ path: String) -> Bool {
    var previous: UInt8 = 0
    var dots = 0
    for byte in path.utf8 {
      if byte == UInt8(ascii: "/") {
        if previous == UInt8(ascii: "/") || dots == 1 || dots == 2 { return false }
        dots = 0
      } else if byte == UInt8(ascii: ".") && (previous == UInt8(ascii: "/") || dots > 0) {
        dots += 1
      } else {
        dots = -1
      }
      previous = byte
    }
    return path.utf8.first == UInt8(ascii: "/") && previous != UInt8(ascii: "/")
      && dots != 1 && dots != 2 || path == "/"
  }

  /// The folder holding `path` (`/` for a file at the root), as `deletingLastPathComponent`.
  package static func folder(of path: String) -> String {
    var bytes = path.utf8[...]
    if bytes.count > 1 && bytes.last == slash { bytes = bytes.dropLast() }
    guard let last = bytes.lastIndex(of: slash) else { return "." }
    return last == bytes.startIndex ? "/" : String(decoding: bytes[..<last], as: UTF8.self)
  }

  /// The folders from the root down to `folder` itself, each cut at a slash byte: `/a`, `/a/b`,
  /// `/a/b/c` for `/a/b/c` (empty components skipped): what to create in turn, with its parents.
  package static func chain(to folder: String) -> [String] {
    var prefix = ""
    return folder.utf8.split(separator: slash).map { component in
      prefix += "/" + String(decoding: component, as: UTF8.self)
      return prefix
    }
  }

  /// The running program's own file, links resolved (`/proc/self/exe`); `argv[0]` where that
  /// cannot be read.
  package static func runningExecutable() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static func workingFolder() -> String {
    guard let folder = getcwd(nil, 0) else { return "" }
    defer { free(folder) }
    return String(cString: folder)
  }
}
