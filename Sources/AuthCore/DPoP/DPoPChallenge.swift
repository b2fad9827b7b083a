import Foundation

/// The `DPoP` challenge of a `WWW-Authenticate` header (RFC 9449 §7.1, RFC 9110 §11.6.1): how
/// a resource server says a request's proof or token was refused, and asks for a nonce with
/// `error="use_dpop_nonce"` (§9). The header may hold other challenges (`Bearer …`) before or
/// after it; only the first `DPoP` one is read.
public struct DPoPChallenge: Sendable, Equatable {
  /// `error` (`invalid_token`, `invalid_dpop_proof`, `use_dpop_nonce`), cleaned.
  public let error: String?
  /// `error_description`, cleaned of control characters and cut to 300 characters.
  public let errorDescription: String?
  /// `algs` (§7.1): the JWS algorithms the server takes, space-separated on the wire.
  public let algorithms: [String]

  /// The longest header read; a longer one is ignored as if absent.
  public static let maximumLength = 8192

  /// The `DPoP` challenge of `header`, or nil when it has none (or cannot be read).
  public init?(header: String) {
    guard header.utf8.count <= Self.maximumLength,
      let parameters = Self.challenges(in: header).first(where: { $0.scheme == "dpop" })?
        .parameters
    else { return nil }
    error = parameters["error"].flatMap(OAuthError.clean)
    errorDescription = parameters["error_description"].flatMap(OAuthError.clean)
    algorithms = parameters["algs"]?.split(separator: " ").map(String.init) ?? []
  }

  /// The challenges of a header value, each with its scheme (lowercased) and its auth-params
  /// (names lowercased, quoted strings unescaped, the first of a repeated name kept). The
  /// value is a comma-separated list whose elements are `scheme`, `scheme token68`,
  /// `scheme name=value` (a challenge and its first parameter) or `name=value` (one more
  /// parameter of the challenge before); what fits none of them is skipped.
  static func challenges(in header: String) -> [(scheme: String, parameters: [String: String])] {
    var found: [(scheme: String, parameters: [String: String])] = []
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
      var challenge = (scheme: first.lowercased(), parameters: [String: String]())
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
