/// Test vectors are published in hex; these turn them into bytes and back.
func hex(_ text: String) -> [UInt8] {
  let digits = Array(text.filter { !$0.isWhitespace }.utf8)
  precondition(digits.count % 2 == 0, "odd-length hex in a test vector")
  return stride(from: 0, to: digits.count, by: 2).map { index in
    UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) ?? 0
  }
}

func hexString(_ bytes: [UInt8]) -> String {
  bytes.map { byte in
    let digits = String(byte, radix: 16)
    return digits.count == 1 ? "0" + digits : digits
  }.joined()
}

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
