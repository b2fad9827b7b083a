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
    String(bytes: bytes, encoding: .utf8)
  }

  static func encode(_ text: String?) -> [UInt8] {
    guard let text else { return [0] }
    return [1] + Array(text.utf8)
  }

  static func decodeOptionalText(_ bytes: [UInt8]) -> String?? {
    guard let flag = bytes.first else { return nil }
    switch flag {
    case 0 where bytes.count == 1: return .some(nil)
    case 1: return decodeText(Array(bytes.dropFirst())).map { .some($0) }
    default: return nil
    }
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
    guard bytes.count == 8 else { return nil }
    let bits = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    return Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits))
  }

  static func encode(_ date: Date?) -> [UInt8] {
    guard let date else { return [0] }
    return [1] + encode(date)
  }

  static func decodeOptionalDate(_ bytes: [UInt8]) -> Date?? {
    guard let flag = bytes.first else { return nil }
    switch flag {
    case 0 where bytes.count == 1: return .some(nil)
    case 1: return decodeDate(Array(bytes.dropFirst())).map { .some($0) }
    default: return nil
    }
  }

  /// A list of strings as a JSON array (scopes).
  static func encode(_ list: [String]) -> [UInt8] {
    (try? JSONEncoder().encode(list)).map(Array.init) ?? Array("[]".utf8)
  }

  static func decodeList(_ bytes: [UInt8]) -> [String]? {
    try? JSONDecoder().decode([String].self, from: Data(bytes))
  }

  /// A string dictionary as a JSON object with sorted keys (identity fields).
  static func encode(_ fields: [String: String]) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return (try? encoder.encode(fields)).map(Array.init) ?? Array("{}".utf8)
  }

  static func decodeFields(_ bytes: [UInt8]) -> [String: String]? {
    try? JSONDecoder().decode([String: String].self, from: Data(bytes))
  }

  /// The big-endian bytes of an unsigned integer.
  static func bigEndian<T: FixedWidthInteger & UnsignedInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.bigEndian) { Array($0) }
  }
}
