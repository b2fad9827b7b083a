import AuthCore
import Foundation
import Spelling

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
  public static func defaultVariableName(provider: ProviderID, label: String?) -> String {
    let parts = [provider.rawValue] + (label.map { [$0] } ?? []) + ["TOKEN"]
    var name = parts.joined(separator: "_").uppercased().map { character -> Character in
      character.isASCII && (character.isLetter || character.isNumber) ? character : "_"
    }
    if let first = name.first, first.isNumber { name.insert("_", at: 0) }
    // A provider `ld` or `lc-x` would give a name the loader or the shell reads (`LD_TOKEN`).
    if TokenVariableName.reason(String(name), for: .envFile) != nil { name.insert("_", at: 0) }
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

  /// Why `name` cannot be a variable of the file, and what to give instead (`export --var`
  /// refuses it with this before the vault opens).
  public static func notAVariableName(_ name: String) -> String {
    "\(MessageQuoting.quoted(name)) is not a shell variable name; use letters, digits and _ "
      + "(not starting with a digit), for example --var SIMKL_TOKEN"
  }

  /// `value` in POSIX single quotes; a `'` inside becomes `'\''`.
  ///
  /// Scalar by scalar, as the shell reads it: compared by `Character`, a `'` followed by a
  /// combining mark (`'\u{301}`) is not a `'`, so it would be left as it is, end the quoting,
  /// and the rest of the value would run as shell code when the file is sourced.
  public static func quote(_ value: String) -> String {
    var quoted = String.UnicodeScalarView()
    quoted.append("'")
    for scalar in value.unicodeScalars {
      if scalar == "'" {
        quoted.append(contentsOf: #"'\''"#.unicodeScalars)
      } else {
        quoted.append(scalar)
      }
    }
    quoted.append("'")
    return String(quoted)
  }

  /// What `variable_EXPIRES_AT` holds: whole seconds since 1970, empty when the token does not
  /// say when it expires (the env file's value, and the one `exec` gives its command).
  public static func expiryValue(_ expiresAt: Date?) -> String {
    expiresAt.map { String(Int(clamping: $0.timeIntervalSince1970)) } ?? ""
  }

  /// Sets `variable` (and `variable_EXPIRES_AT`) in the file at `path`, keeping its other lines.
  public static func write(
    variable: String, value: String, expiresAt: Date?, to path: String
  ) throws(AccountsError) {
    guard isValidVariableName(variable) else {
      throw .envFile(path: path, reason: notAVariableName(variable))
    }
    guard !value.contains("\0") else {
      throw .envFile(path: path, reason: "the token holds a NUL byte, which no shell can keep")
    }
    let destination = try destination(of: path)
    var existing = ""
    if let file = destination.existing {
      existing = try text(of: file, at: destination.path, named: path)
    }
    let expiry = expiryValue(expiresAt)
    let (found, unfinished) = statements(in: existing)
    if let line = unfinished {
      // Lines written after it would be read as part of it: `. FILE` would never set the token,
      // or the next export would keep this one inside that statement.
      throw .envFile(
        path: path,
        reason: "its last statement, from line \(line) on, never ends (a ' without its closing '"
          + ", or a \\ at the very end): fix that line, then export again")
    }
    let kept = found.filter { statement in
      let assigned = assignedName(statement)
      return assigned != variable && assigned != variable + "_EXPIRES_AT"
    }
    var lines = kept
    lines.append("\(variable)=\(quote(value))")
    lines.append("\(variable)_EXPIRES_AT=\(quote(expiry))")
    try replace(destination, named: path, with: lines.joined(separator: "\n") + "\n")
  }

  /// The file split into statements: lines, except that a quoted value spanning several lines
  /// (a token with a newline, as `write` produces) stays one statement; and the line on which a
  /// last statement that never ends (an unclosed quote, a final `\`) starts, if any.
  ///
  /// Read as `sh` reads quoting: `'…'` is literal, `"…"` ends at an unescaped `"`, a `\`
  /// outside single quotes makes the next character literal, and a `#` that starts a word
  /// outside quotes begins a comment (so `# don't` opens no quote). Scalar by scalar, not by
  /// `Character`: Swift makes "\r\n" one character, which is not "\n", so a CRLF file would
  /// otherwise read as a single statement; and a `'` followed by a combining mark is still a
  /// `'` to the shell. A CRLF line keeps its "\r".
  static func statements(in text: String) -> (statements: [String], unfinished: Int?) {
    enum Mode { case plain, single, double, comment }
    var statements: [String] = []
    var current = String.UnicodeScalarView()
    var mode = Mode.plain
    var escaped = false
    var wordStart = true
    var line = 1
    var startLine = 1
    for scalar in text.unicodeScalars {
      var ends = false
      if escaped {
        escaped = false
      } else {
        switch mode {
        case .plain:
          if scalar == "\\" {
            escaped = true
          } else if scalar == "'" {
            mode = .single
          } else if scalar == "\"" {
            mode = .double
          } else if scalar == "#" && wordStart {
            mode = .comment
          } else if scalar == "\n" {
            ends = true
          }
        case .single:
          if scalar == "'" { mode = .plain }
        case .double:
          if scalar == "\\" {
            escaped = true
          } else if scalar == "\"" {
            mode = .plain
          }
        case .comment:
          if scalar == "\n" {
            mode = .plain
            ends = true
          }
        }
      }
      wordStart = mode == .plain && [" ", "\t", "\n", ";", "\u{FEFF}"].contains(scalar)
      if scalar == "\n" { line += 1 }
      if ends {
        statements.append(String(current))
        current = String.UnicodeScalarView()
        startLine = line
        wordStart = true
      } else {
        current.append(scalar)
      }
    }
    // A line continued by a final `\` newline would take in the line written after it.
    let continued = mode == .plain && current.reversed().starts(with: ["\n", "\\"])
    if !current.isEmpty { statements.append(String(current)) }
    let open = escaped || continued || mode == .single || mode == .double
    return (statements, open ? startLine : nil)
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
