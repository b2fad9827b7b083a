/// One challenge of a `WWW-Authenticate` header (RFC 9110 §11.6.1): its scheme and its
/// auth-params. The one reader of that header, for the DPoP challenge of a resource server
/// (`DPoPChallenge`) and the Bearer challenge of an identity endpoint (`BearerChallenge`).
package struct AuthenticationChallenge: Sendable, Equatable {
  /// The scheme, lowercased (`bearer`, `dpop`).
  package let scheme: String
  /// The auth-params: names lowercased, quoted strings unescaped, the first of a repeated name
  /// kept. Not cleaned: a value shown to a person goes through `OAuthError.clean` first.
  package var parameters: [String: String]

  /// The longest header read; a longer one is ignored as if absent.
  package static let maximumLength = 8192

  /// The first challenge of `scheme` (lowercase) in `header`; nil when there is none, or the
  /// header is longer than `maximumLength`.
  package static func first(_ scheme: String, in header: String) -> AuthenticationChallenge? {
    guard header.utf8.count <= maximumLength else { return nil }
    return all(in: header).first { $0.scheme == scheme }
  }

  /// The challenges of a header value. The value is a comma-separated list whose elements are
  /// `scheme`, `scheme token68`, `scheme name=value` (a challenge and its first parameter) or
  /// `name=value` (one more parameter of the challenge before); what fits none of them is
  /// skipped.
  static func all(in header: String) -> [AuthenticationChallenge] {
    var found: [AuthenticationChallenge] = []
    for element in HeaderScanner.elements(of: header) {
      var scanner = HeaderScanner(element)
      scanner.skipSpaces()
      guard let first = scanner.token() else { continue }
      scanner.skipSpaces()
      if scanner.peek == 0x3D {
        guard let last = found.indices.last, let value = scanner.parameterValue() else {
          continue
        }
        let name = first.lowercased()
        if found[last].parameters[name] == nil { found[last].parameters[name] = value }
        continue
      }
      var challenge = AuthenticationChallenge(scheme: first.lowercased(), parameters: [:])
      if let name = scanner.token() {
        scanner.skipSpaces()
        // A token68 (`Basic dGVzdA==`) ends in `=` or nothing; a parameter has a value.
        if scanner.peek == 0x3D, let value = scanner.parameterValue() {
          challenge.parameters[name.lowercased()] = value
        }
      }
      found.append(challenge)
    }
    return found
  }
}

/// Reads the tokens and quoted strings of an HTTP header value (RFC 9110 §5.6.2, §5.6.4),
/// byte by byte.
private struct HeaderScanner {
  private let bytes: [UInt8]
  private var position = 0

  init(_ bytes: some Sequence<UInt8>) {
    self.bytes = Array(bytes)
  }

  /// The comma-separated elements of `header`; a comma inside a quoted string is no separator.
  static func elements(of header: String) -> [[UInt8]] {
    var elements: [[UInt8]] = []
    var current: [UInt8] = []
    var quoted = false
    var escaped = false
    for byte in header.utf8 {
      if quoted {
        if escaped {
          escaped = false
        } else if byte == 0x5C {
          escaped = true
        } else if byte == 0x22 {
          quoted = false
        }
      } else if byte == 0x22 {
        quoted = true
      } else if byte == 0x2C {
        elements.append(current)
        current = []
        continue
      }
      current.append(byte)
    }
    elements.append(current)
    return elements
  }

  var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

  mutating func skipSpaces() {
    while let next = peek, next == 0x20 || next == 0x09 { position += 1 }
  }

  /// `tchar` (RFC 9110 §5.6.2): visible ASCII but the delimiters.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    guard (0x21...0x7E).contains(byte) else { return false }
    return !Array("\"(),/:;<=>?@[\\]{}".utf8).contains(byte)
  }

  /// A run of token characters, or nil (and nothing read) when there is none.
  mutating func token() -> String? {
    let start = position
    while let next = peek, Self.isTokenByte(next) { position += 1 }
    guard position > start else { return nil }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  /// After a parameter's name: `= value`, the value a token or a quoted string with its `\`
  /// escapes undone. Nil when there is no value (a token68's padding).
  mutating func parameterValue() -> String? {
    guard peek == 0x3D else { return nil }
    position += 1
    skipSpaces()
    guard peek == 0x22 else { return token() }
    position += 1
    var value: [UInt8] = []
    while let byte = peek {
      position += 1
      if byte == 0x22 { return String(decoding: value, as: UTF8.self) }
      if byte == 0x5C, let escapedByte = peek {
        value.append(escapedByte)
        position += 1
        continue
      }
      value.append(byte)
    }
    // Unterminated: not a value.
    return nil
  }
}
