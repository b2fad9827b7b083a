import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A shell environment file (`NAME='value'` lines) that `authtui export --env-file` keeps a
/// token in, for scripts that `. FILE`.
///
/// Values are POSIX single-quoted, so any byte but NUL survives `sh`, `bash` and `zsh`
/// untouched: `'`, `$`, backquotes, spaces and newlines included. Writing replaces only this
/// token's two variables (`NAME` and `NAME_EXPIRES_AT`, in seconds since 1970, empty for a token
/// that does not expire) and keeps every other line; it goes to a new 0600 file beside the old
/// one, synced, then renamed over it, so a reader sees the old file or the new one and never a
/// half-written token.
public enum EnvFile {
  /// `PROVIDER_TOKEN` for a provider's first account, `PROVIDER_LABEL_TOKEN` otherwise;
  /// letters upper-cased, anything not a letter or digit turned into `_`.
  public static func defaultVariableName(provider: String, label: String?) -> String {
    let parts = [provider] + (label.map { [$0] } ?? []) + ["TOKEN"]
    var name = parts.joined(separator: "_").uppercased().map { character -> Character in
      character.isASCII && (character.isLetter || character.isNumber) ? character : "_"
    }
    if let first = name.first, first.isNumber { name.insert("_", at: 0) }
    return String(name)
  }

  /// True for a POSIX shell variable name: a letter or `_`, then letters, digits or `_`.
  public static func isValidVariableName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, name.count <= 128 else { return false }
    let allowed = { (scalar: Unicode.Scalar) in
      scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "_")
    }
    return (first == "_" || (first.isASCII && CharacterSet.letters.contains(first)))
      && name.unicodeScalars.allSatisfy(allowed)
  }

  /// `value` in POSIX single quotes; a `'` inside becomes `'\''`.
  public static func quote(_ value: String) -> String {
    "'" + value.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  /// Sets `variable` (and `variable_EXPIRES_AT`) in the file at `path`, keeping its other lines.
  public static func write(
    variable: String, value: String, expiresAt: Date?, to path: String
  ) throws(AccountsError) {
    guard isValidVariableName(variable) else {
      throw .envFile(
        path: path,
        reason: "\"\(variable)\" is not a shell variable name; use letters, digits and _ "
          + "(not starting with a digit), for example --var SIMKL_TOKEN")
    }
    guard !value.contains("\0") else {
      throw .envFile(path: path, reason: "the token holds a NUL byte, which no shell can keep")
    }
    var existing = ""
    if let data = FileManager.default.contents(atPath: path) {
      guard let text = String(data: data, encoding: .utf8) else {
        throw .envFile(path: path, reason: "the file is not UTF-8 text; choose another --env-file")
      }
      existing = text
    }
    let expiry = expiresAt.map { String(Int($0.timeIntervalSince1970)) } ?? ""
    let kept = statements(in: existing).filter { statement in
      let assigned = assignedName(statement)
      return assigned != variable && assigned != variable + "_EXPIRES_AT"
    }
    var lines = kept
    lines.append("\(variable)=\(quote(value))")
    lines.append("\(variable)_EXPIRES_AT=\(quote(expiry))")
    try replaceAtomically(path: path, contents: lines.joined(separator: "\n") + "\n")
  }

  /// The file split into statements: lines, except that a single-quoted value spanning several
  /// lines (a token with a newline, as `write` produces) stays one statement.
  static func statements(in text: String) -> [String] {
    var statements: [String] = []
    var current = ""
    var insideQuotes = false
    var escaped = false
    for character in text {
      let literal = escaped
      if escaped {
        // Outside quotes a backslash makes the next character literal (`'\''`).
        escaped = false
      } else if character == "\\" && !insideQuotes {
        escaped = true
      } else if character == "'" {
        insideQuotes.toggle()
      }
      if character == "\n" && !insideQuotes && !literal {
        statements.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    if !current.isEmpty { statements.append(current) }
    return statements
  }

  /// The variable a statement assigns (`NAME=…` or `export NAME=…`), if any.
  static func assignedName(_ statement: String) -> String? {
    var body = Substring(statement).drop { $0 == " " || $0 == "\t" }
    if body.hasPrefix("export ") { body = body.dropFirst("export ".count).drop { $0 == " " } }
    guard let equals = body.firstIndex(of: "=") else { return nil }
    let name = String(body[..<equals])
    return isValidVariableName(name) ? name : nil
  }

  private static func replaceAtomically(path: String, contents: String) throws(AccountsError) {
    let target = URL(fileURLWithPath: path)
    let directory = target.deletingLastPathComponent().path
    var template = Array((directory + "/.\(target.lastPathComponent).XXXXXX").utf8CString)
    // mkstemp creates the file 0600, so the token is never readable by others, even briefly.
    let descriptor = mkstemp(&template)
    guard descriptor >= 0 else {
      throw .envFile(
        path: path, reason: "\(systemError()) (does the folder \(directory) exist?)")
    }
    let temporary = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var bytes = Array(contents.utf8)[...]
    var failure: String?
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        failure = systemError()
        break
      }
      bytes = bytes.dropFirst(written)
    }
    if failure == nil && (fchmod(descriptor, 0o600) != 0 || fsync(descriptor) != 0) {
      failure = systemError()
    }
    close(descriptor)
    if failure == nil && rename(temporary, path) != 0 {
      failure = systemError()
    }
    if let failure {
      unlink(temporary)
      throw .envFile(path: path, reason: failure)
    }
    let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY)
    if directoryDescriptor >= 0 {
      fsync(directoryDescriptor)
      close(directoryDescriptor)
    }
  }

  /// The text of `errno`.
  private static func systemError() -> String {
    guard let text = strerror(errno) else { return "error \(errno)" }
    return String(validatingCString: text) ?? "error \(errno)"
  }
}
