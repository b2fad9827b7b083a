/// The request a proof is for (`method`, `url`): checked on both sides of the socket, so the
/// agent signs nothing a command line could not have asked. `url(_:)`, which reads the URL as
/// Foundation's `URL` does, is in AgentProtocol; the front, which links no Foundation, reads
/// only the plain URLs `plainURL(_:)` knows and leaves every other to the full program.
public enum ProofTarget {
  /// The longest URL taken, in bytes.
  public static let maximumURLLength = 8192

  /// `text` as a method (RFC 9110 §9: a token; `GET`, `POST`…), in capitals, or nil when it is
  /// not letters only (1 to 32 of them).
  public static func method(_ text: String) -> String? {
    guard (1...32).contains(text.utf8.count),
      text.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
    else { return nil }
    return text.uppercased()
  }

  /// `text` when it is a plain `https` or `http` URL that `url(_:)` takes and gives back as it
  /// is written (`absoluteString`): the scheme, `://`, a host of letters, digits, dots and
  /// hyphens with an optional port of digits, then a path, query and fragment of RFC 3986's
  /// characters, each `%` starting an escape of two hex digits. Nil for anything else (user
  /// information, an IP literal in brackets, an escape in the host, a second `#`), which
  /// `url(_:)` may still take: the front then hands the command line to the full program.
  package static func plainURL(_ text: String) -> String? {
    let bytes = Array(text.utf8)
    guard (1...maximumURLLength).contains(bytes.count) else { return nil }
    var index: Int
    if hasPrefix(bytes, "https://") {
      index = 8
    } else if hasPrefix(bytes, "http://") {
      index = 7
    } else {
      return nil
    }
    let hostStart = index
    while index < bytes.count, isHostByte(bytes[index]) { index += 1 }
    guard index > hostStart else { return nil }
    if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
      index += 1
      let portStart = index
      while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
      guard (1...5).contains(index - portStart) else { return nil }
    }
    guard index == bytes.count || "/?#".utf8.contains(bytes[index]) else { return nil }
    var fragment = false
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%") {
        guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2])
        else { return nil }
        index += 3
        continue
      }
      if byte == UInt8(ascii: "#") {
        guard !fragment else { return nil }
        fragment = true
      } else if !isPathByte(byte) {
        return nil
      }
      index += 1
    }
    return text
  }

  /// True when `bytes` starts with `prefix`, letters in either case.
  private static func hasPrefix(_ bytes: [UInt8], _ prefix: String) -> Bool {
    let expected = Array(prefix.utf8)
    guard bytes.count >= expected.count else { return false }
    return zip(bytes, expected).allSatisfy { byte, wanted in
      byte == wanted || (0x41...0x5A).contains(byte) && byte + 0x20 == wanted
    }
  }

  private static func isHostByte(_ byte: UInt8) -> Bool {
    isLetterOrDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
  }

  /// RFC 3986's unreserved characters, sub-delimiters, `:`, `@`, `/` and `?`: what a path,
  /// query and fragment hold besides escapes.
  private static func isPathByte(_ byte: UInt8) -> Bool {
    isLetterOrDigit(byte) || "-._~!$&'()*+,;=:@/?".utf8.contains(byte)
  }

  private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
  }
}
