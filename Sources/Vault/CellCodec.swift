import Foundation

/// The plaintext layout of sealed cells: small, explicit, and versioned by the schema.
///
/// Optional values carry a presence byte (0 absent, 1 present) so "no refresh token" is sealed
/// like any other value: a NULL written over a cell is rejected instead of read as "absent".
enum CellCodec {
  static func encode(_ text: String) -> [UInt8] {
    Array(text.utf8)
  }

  static func decodeText(_ bytes: [UInt8]) -> String? {
    decodeText(bytes[...])
  }

  /// Strict UTF-8 through the standard library, which costs a fraction of Foundation's
  /// `String(bytes:encoding:)`. A short ASCII cell (a name, a token type, a scope: most
  /// cells) is checked byte by byte and taken as it is, the cheapest for a few dozen bytes; a
  /// longer one (a token of a kilobyte) goes through the standard library's validation, which
  /// is vectorised: about a quarter of the byte-by-byte check's cost at 600 bytes. Foundation's
  /// decoding drops a leading byte order mark, and so does this, so that every stored value
  /// reads back as it always has.
  static func decodeText(_ bytes: ArraySlice<UInt8>) -> String? {
    let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    return decodeExactly(
      bytes.starts(with: byteOrderMark) ? bytes.dropFirst(byteOrderMark.count) : bytes)
  }

  /// `text` as UTF-8, every byte of it kept.
  private static func decodeExactly(_ text: ArraySlice<UInt8>) -> String? {
    if text.count <= 64, text.allSatisfy({ $0 < 0x80 }) {
      return String(decoding: text, as: UTF8.self)
    }
    return String(validating: text, as: UTF8.self)
  }

  /// The text of a name cell (provider id, label) as it was sealed, a leading byte order mark
  /// kept: the name index was made of exactly that text, so a label that began with one (which
  /// authtui once let through) still matches its index and can be renamed.
  static func decodeName(_ bytes: [UInt8]) -> String? {
    decodeExactly(bytes[...])
  }

  static func decodeOptionalText(_ bytes: [UInt8]) -> String?? {
    decodeOptional(bytes, decodeText)
  }

  static func encode(_ flag: Bool) -> [UInt8] {
    [flag ? 1 : 0]
  }

  static func decodeBool(_ bytes: [UInt8]) -> Bool? {
    bytes == [1] ? true : bytes == [0] ? false : nil
  }

  /// A date as the IEEE 754 bits of Foundation's own representation (seconds since 2001),
  /// big-endian, so it reads back exactly equal (a Unix-time conversion would round).
  static func encode(_ date: Date) -> [UInt8] {
    bigEndian(date.timeIntervalSinceReferenceDate.bitPattern)
  }

  static func decodeDate(_ bytes: [UInt8]) -> Date? {
    decodeDate(bytes[...])
  }

  static func decodeDate(_ bytes: ArraySlice<UInt8>) -> Date? {
    guard bytes.count == 8 else { return nil }
    let bits = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    return Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits))
  }

  static func decodeOptionalDate(_ bytes: [UInt8]) -> Date?? {
    decodeOptional(bytes, decodeDate)
  }

  /// A date interval as its start and its end, each as `encode(_:)` of a date.
  static func encode(_ interval: DateInterval) -> [UInt8] {
    encode(interval.start) + encode(interval.end)
  }

  static func decodeInterval(_ bytes: ArraySlice<UInt8>) -> DateInterval? {
    let start = bytes.startIndex
    guard bytes.count == 16, let startDate = decodeDate(bytes[start..<start + 8]),
      let end = decodeDate(bytes[start + 8..<start + 16]), startDate <= end
    else { return nil }
    return DateInterval(start: startDate, end: end)
  }

  static func decodeInterval(_ bytes: [UInt8]) -> DateInterval? {
    decodeInterval(bytes[...])
  }

  static func decodeOptionalInterval(_ bytes: [UInt8]) -> DateInterval?? {
    decodeOptional(bytes, decodeInterval)
  }

  /// An optional value: [0] when absent, [1] and the value's encoding when present.
  static func encode<T>(_ value: T?, _ encode: (T) -> [UInt8]) -> [UInt8] {
    guard let value else { return [0] }
    return [1] + encode(value)
  }

  /// The optional value `encode(_:_:)` wrote: `.some(nil)` for absent, nil when malformed.
  static func decodeOptional<T>(_ bytes: [UInt8], _ decode: (ArraySlice<UInt8>) -> T?) -> T?? {
    switch bytes.first {
    case 0 where bytes.count == 1: return .some(nil)
    case 1: return decode(bytes.dropFirst()).map { .some($0) }
    default: return nil
    }
  }

  /// A list of strings, each as a 32-bit big-endian length and its UTF-8 bytes (scopes).
  static func encode(_ list: [String]) -> [UInt8] {
    var bytes: [UInt8] = []
    for item in list {
      let utf8 = Array(item.utf8)
      bytes += bigEndian(UInt32(utf8.count)) + utf8
    }
    return bytes
  }

  static func decodeList(_ bytes: [UInt8]) -> [String]? {
    var list: [String] = []
    var offset = 0
    while offset < bytes.count {
      guard offset + 4 <= bytes.count else { return nil }
      let count = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      offset += 4
      guard count <= bytes.count - offset,
        let item = decodeText(bytes[offset..<offset + count])
      else { return nil }
      list.append(item)
      offset += count
    }
    return list
  }

  /// A string dictionary as the list key, value, key, value… with keys sorted (identity fields).
  static func encode(_ fields: [String: String]) -> [UInt8] {
    encode(fields.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] })
  }

  static func decodeFields(_ bytes: [UInt8]) -> [String: String]? {
    guard let list = decodeList(bytes), list.count % 2 == 0 else { return nil }
    var fields: [String: String] = [:]
    fields.reserveCapacity(list.count / 2)
    for index in stride(from: 0, to: list.count, by: 2) {
      guard fields.updateValue(list[index + 1], forKey: list[index]) == nil else { return nil }
    }
    return fields
  }

  /// The big-endian bytes of an unsigned integer.
  static func bigEndian<T: FixedWidthInteger & UnsignedInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.bigEndian) { Array($0) }
  }
}
