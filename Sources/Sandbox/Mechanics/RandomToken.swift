import Crypto

/// Fresh unguessable strings for codes and tokens, and short codes a person can type.
enum RandomToken {
  /// `byteCount` random bytes as unpadded base64url.
  static func opaque(byteCount: Int = 32) -> String {
    Base64URL.encode(SecureRandom.bytes(count: byteCount))
  }

  /// `byteCount` random bytes as lowercase hexadecimal (Simkl's tokens look like this).
  static func hex(byteCount: Int = 32) -> String {
    SecureRandom.bytes(count: byteCount).map { byte in
      let text = String(byte, radix: 16)
      return byte < 16 ? "0" + text : text
    }.joined()
  }

  /// A code of `length` characters drawn uniformly from `alphabet` (rejection sampling, so no
  /// character is likelier than another).
  static func userCode(length: Int, alphabet: String) -> String {
    let symbols = Array(alphabet)
    let limit = 256 - 256 % symbols.count
    var output = ""
    while output.count < length {
      for byte in SecureRandom.bytes(count: length * 2) where Int(byte) < limit {
        output.append(symbols[Int(byte) % symbols.count])
        if output.count == length { break }
      }
    }
    return output
  }
}
