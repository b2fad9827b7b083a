import Foundation

/// A shell environment file (`NAME='value'` lines) that `authtui export --env-file` keeps a
/// token in, for scripts that `. FILE`.
///
/// Values are POSIX single-quoted, so any byte but NUL survives `sh`, `bash` and `zsh`
/// untouched: `'`, `$`, backquotes, spaces and newlines included. Writing replaces only this
/// token's two variables (`NAME` and `NAME_EXPIRES_AT`, in seconds since 1970, empty for a token
/// that does not expire) and keeps every other line as it was (CRLF line ends included); the
/// file is replaced as `EnvFile+Replacement.swift` says: only a regular file of the user's, a
/// symlink followed to its target, never a FIFO, device, socket or folder.
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
    let destination = try destination(of: path)
    var existing = ""
    if let file = destination.existing {
      existing = try text(of: file, at: destination.path, named: path)
    }
    let expiry = expiresAt.map { String(Int($0.timeIntervalSince1970)) } ?? ""
    let kept = statements(in: existing).filter { statement in
      let assigned = assignedName(statement)
      return assigned != variable && assigned != variable + "_EXPIRES_AT"
    }
    var lines = kept
    lines.append("\(variable)=\(quote(value))")
    lines.append("\(variable)_EXPIRES_AT=\(quote(expiry))")
    try replace(destination, named: path, with: lines.joined(separator: "\n") + "\n")
  }

  /// The file split into statements: lines, except that a single-quoted value spanning several
  /// lines (a token with a newline, as `write` produces) stays one statement.
  ///
  /// Read scalar by scalar, not by `Character`: Swift makes "\r\n" one character, which is not
  /// "\n", so a CRLF file would otherwise read as a single statement. A CRLF line keeps its "\r".
  static func statements(in text: String) -> [String] {
    var statements: [String] = []
    var current = String.UnicodeScalarView()
    var insideQuotes = false
    var escaped = false
    for scalar in text.unicodeScalars {
      let literal = escaped
      if escaped {
        // Outside quotes a backslash makes the next character literal (`'\''`).
        escaped = false
      } else if scalar == "\\" && !insideQuotes {
        escaped = true
      } else if scalar == "'" {
        insideQuotes.toggle()
      }
      if scalar == "\n" && !insideQuotes && !literal {
        statements.append(String(current))
        current = String.UnicodeScalarView()
      } else {
        current.append(scalar)
      }
    }
    if !current.isEmpty { statements.append(String(current)) }
    return statements
  }

  /// The variable a statement assigns (`NAME=…` or `export NAME=…`), if any.
  static func assignedName(_ statement: String) -> String? {
    // A byte order mark some editors put first is not part of the name.
    var body = Substring(statement).drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
    if body.hasPrefix("export ") { body = body.dropFirst("export ".count).drop { $0 == " " } }
    guard let equals = body.firstIndex(of: "=") else { return nil }
    let name = String(body[..<equals])
    return isValidVariableName(name) ? name : nil
  }
}
