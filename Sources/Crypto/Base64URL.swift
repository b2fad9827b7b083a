/// base64url without padding (RFC 4648 §5, as JOSE and PKCE use it, RFC 7515 §2).
///
/// The decoder is strict: it refuses `=` padding, the `+` and `/` of standard base64, whitespace,
/// a length that leaves one dangling character, and non-zero bits after the last full byte, so
/// every byte string has exactly one accepted spelling.
public enum Base64URL {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  private static let decodeTable: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (index, character) in alphabet.enumerated() {
      table[Int(character)] = UInt8(index)
    }
    return table
  }()

  /// Encodes bytes as unpadded base64url.
  public static func encode(_ bytes: some Collection<UInt8>) -> String {
    let input = Array(bytes)
    var output = [UInt8]()
    output.reserveCapacity((input.count * 4 + 2) / 3)
    var index = 0
    while index + 3 <= input.count {
      let chunk =
        UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
      output.append(alphabet[Int(chunk >> 18 & 0x3F)])
      output.append(alphabet[Int(chunk >> 12 & 0x3F)])
      output.append(alphabet[Int(chunk >> 6 & 0x3F)])
      output.append(alphabet[Int(chunk & 0x3F)])
      index += 3
    }
    switch input.count - index {
    case 1:
      let chunk = UInt32(input[index]) << 16
      output.append(alphabet[Int(chunk >> 18 & 0x3F)])
      output.append(alphabet[Int(chunk >> 12 & 0x3F)])
    case 2:
      let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
      output.append(alphabet[Int(chunk >> 18 & 0x3F)])
      output.append(alphabet[Int(chunk >> 12 & 0x3F)])
      output.append(alphabet[Int(chunk >> 6 & 0x3F)])
    default:
      break
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Decodes unpadded base64url, throwing `CryptoError.malformedBase64URL` on anything else.
  public static func decode(_ text: some StringProtocol) throws -> [UInt8] {
    let input = Array(text.utf8)
    if input.count % 4 == 1 { throw CryptoError.malformedBase64URL }
    var output = [UInt8]()
    output.reserveCapacity(input.count * 3 / 4)
    var accumulator: UInt32 = 0
    var bits = 0
    for character in input {
      let value = decodeTable[Int(character)]
      if value == 0xFF { throw CryptoError.malformedBase64URL }
      accumulator = accumulator << 6 | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
      }
    }
    // Leftover bits must be zero, or two spellings would decode to the same bytes.
    if bits > 0 && accumulator & ((1 << UInt32(bits)) - 1) != 0 {
      throw CryptoError.malformedBase64URL
    }
    return output
  }
}
