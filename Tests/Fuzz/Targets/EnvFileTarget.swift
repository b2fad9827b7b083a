import Accounts
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension FuzzTargets {
  /// The folder the env-file target writes in: memory-backed where there is one, as every input
  /// is a file write with `fsync`.
  private static let envFolder: String? = {
    let base =
      FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    let folder = base + "/authtui-fuzz-\(getpid())"
    return
      (try? FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true)) == nil ? nil : folder
  }()

  /// `export --env-file` on an existing file: the input up to its first NUL byte is the file
  /// the user has, the rest the token (any byte, newlines and quotes included).
  ///
  /// The token, quoted, reads back as itself in `sh`; the new file ends with exactly the two
  /// assignments written; writing again keeps every other line byte for byte, so the reader of
  /// the file finds its own lines where it put them and the token's earlier lines, however
  /// quoted, are replaced rather than left behind.
  static let envFile = FuzzTarget(
    name: "env-file", summary: "EnvFile.write: the lines of an existing env file"
  ) { bytes in
    guard let folder = envFolder else { return }
    let split = bytes.firstIndex(of: 0) ?? bytes.endIndex
    let existing = Array(bytes[..<split])
    let token = String(fuzzInput: Array(bytes[split...].dropFirst()))
    guard !token.contains("\0") else { return }
    require(
      shellUnquoted(EnvFile.quote(token)).elementsEqual(token.unicodeScalars),
      "the quoted token does not read back as itself in sh")
    let path = folder + "/env"
    guard FileManager.default.createFile(atPath: path, contents: Data(existing)) else { return }
    let expiry = Date(timeIntervalSince1970: 1_750_000_000)
    let tail = "AUTHTUI_TOKEN=\(EnvFile.quote(token))\nAUTHTUI_TOKEN_EXPIRES_AT='1750000000'\n"
    do {
      try EnvFile.write(variable: "AUTHTUI_TOKEN", value: token, expiresAt: expiry, to: path)
    } catch {
      // Refused: not UTF-8, or its last statement never ends (lines written after it would
      // be read as part of it).
      require(
        String(validating: existing, as: UTF8.self) == nil || "\(error)".contains("never ends"),
        "refused: \(error)")
      return
    }
    let first = String(
      decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    require(first.hasSuffix(tail), "the file does not end with the token's two lines")
    let kept = first.dropLast(tail.count)
    // A file the first write accepted is closed: the second replaces exactly the token.
    guard !leavesStatementOpen(existing) else { return }
    let secondToken = "second" + token
    let secondTail =
      "AUTHTUI_TOKEN=\(EnvFile.quote(secondToken))\nAUTHTUI_TOKEN_EXPIRES_AT='1750000000'\n"
    do {
      try EnvFile.write(variable: "AUTHTUI_TOKEN", value: secondToken, expiresAt: expiry, to: path)
    } catch {
      require(false, "refused its own file: \(error)")
    }
    let second = String(
      decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    require(
      second == kept + secondTail,
      "a second write did not replace exactly the token's lines: \(second.debugDescription)")
  }

  /// True when `bytes` end inside a single-quoted string or right after an escaping backslash,
  /// read as `EnvFile` reads a file (scalar by scalar; outside quotes a backslash makes the
  /// next one literal).
  private static func leavesStatementOpen(_ bytes: [UInt8]) -> Bool {
    var insideQuotes = false
    var escaped = false
    for scalar in String(fuzzInput: bytes).unicodeScalars {
      if escaped {
        escaped = false
      } else if scalar == "\\" && !insideQuotes {
        escaped = true
      } else if scalar == "'" {
        insideQuotes.toggle()
      }
    }
    return insideQuotes || escaped
  }

  /// What `sh` makes of a word of single-quoted strings and backslash-escaped characters, the
  /// shape `EnvFile.quote` writes, scalar by scalar.
  private static func shellUnquoted(_ word: String) -> [Unicode.Scalar] {
    var value: [Unicode.Scalar] = []
    var insideQuotes = false
    var escaped = false
    for scalar in word.unicodeScalars {
      if escaped {
        value.append(scalar)
        escaped = false
      } else if scalar == "'" {
        insideQuotes.toggle()
      } else if scalar == "\\" && !insideQuotes {
        escaped = true
      } else {
        value.append(scalar)
      }
    }
    return value
  }
}
