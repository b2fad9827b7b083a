/// Percent-encoding for query strings and `application/x-www-form-urlencoded` bodies.
///
/// Done by hand because `URLComponents` leaves `+` unescaped in queries, and servers decode a
/// bare `+` as a space: a base64 value or a scope list would arrive altered. Everything outside
/// the unreserved set of RFC 3986 §2.3 is escaped.
public enum FormEncoding {
  /// One name–value pair, in order; names may repeat.
  public typealias Pair = (name: String, value: String)

  /// Percent-encodes `text`, leaving only `A-Z a-z 0-9 - . _ ~` as they are.
  public static func escape(_ text: String) -> String {
    var output = ""
    output.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      if isUnreserved(byte) {
        output.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        output += "%" + hexDigit(byte >> 4) + hexDigit(byte & 0x0F)
      }
    }
    return output
  }

  /// `name=value&…` with both sides escaped.
  public static func encode(_ pairs: [Pair]) -> String {
    pairs.map { escape($0.name) + "=" + escape($0.value) }.joined(separator: "&")
  }

  /// Decodes a query string or form body. `+` means space (HTML form encoding); malformed
  /// escapes are kept literally rather than failing the whole request.
  public static func decode(_ text: some StringProtocol) -> [Pair] {
    text.split(separator: "&", omittingEmptySubsequences: true).map { field in
      if let equals = field.firstIndex(of: "=") {
        return (unescape(field[..<equals]), unescape(field[field.index(after: equals)...]))
      }
      return (unescape(field), "")
    }
  }

  /// Reverses `escape`, also turning `+` into a space.
  public static func unescape(_ text: some StringProtocol) -> String {
    let bytes = Array(text.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
        let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
      {
        output.append(high << 4 | low)
        index += 3
      } else {
        output.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
        index += 1
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// True for the unreserved characters of RFC 3986 §2.3: `A-Z a-z 0-9 - . _ ~`.
  public static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"):
      return true
    default:
      return false
    }
  }

  private static func hexDigit(_ nibble: UInt8) -> String {
    String(UnicodeScalar(nibble < 10 ? nibble + 48 : nibble + 55))
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - 48
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - 87
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - 55
    default: return nil
    }
  }
}
