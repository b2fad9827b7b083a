/// A QR code (ISO/IEC 18004) of some bytes: byte mode, error correction L or M, versions 1 to
/// 10 (up to 271 bytes at L), the mask chosen by the standard's penalty rules. What the
/// device and PIN sign-ins draw so that a phone can open the verification address.
public struct QRCode: Sendable, Equatable {
  /// How much of the symbol may be lost and still read.
  public enum ErrorCorrection: Sendable, Equatable {
    /// About 7 %.
    case low
    /// About 15 %.
    case medium

    /// The two bits the format information carries.
    var formatBits: Int { self == .low ? 0b01 : 0b00 }
  }

  /// Why a code cannot be made.
  public enum Failure: Error, Equatable, Sendable {
    /// More bytes than version 10 holds at this level.
    case tooLong(bytes: Int, maximum: Int)
  }

  /// The version (1…10): the symbol is 17 + 4 × version modules wide.
  public let version: Int
  /// The mask pattern used (0…7).
  public let mask: Int
  /// The modules, row by row, true for dark; no quiet zone.
  public let modules: [[Bool]]

  /// The width in modules.
  public var size: Int { modules.count }

  /// The smallest code for `bytes` at `level`.
  public init(bytes: [UInt8], level: ErrorCorrection = .medium) throws(Failure) {
    // Bytes beyond ASCII are said to be UTF-8 (ECI 26): decoders guess otherwise, and guess
    // Shift JIS or Latin-1.
    let utf8 = bytes.contains { $0 >= 0x80 }
    guard
      let version = (1...10).first(where: { Self.capacity($0, level, utf8: utf8) >= bytes.count })
    else {
      throw .tooLong(bytes: bytes.count, maximum: Self.capacity(10, level, utf8: utf8))
    }
    let codewords = Self.codewords(bytes, version: version, level: level, utf8: utf8)
    var best: (penalty: Int, mask: Int, modules: [[Bool]])?
    for mask in 0..<8 {
      var matrix = QRMatrix(version: version)
      matrix.place(codewords)
      matrix.apply(mask: mask)
      matrix.drawFormat(level: level, mask: mask)
      let penalty = matrix.penalty()
      if best.map({ penalty < $0.penalty }) ?? true { best = (penalty, mask, matrix.dark) }
    }
    self.version = version
    self.mask = best?.mask ?? 0
    self.modules = best?.modules ?? []
  }

  /// The code for the UTF-8 of `text`.
  public init(text: String, level: ErrorCorrection = .medium) throws(Failure) {
    try self.init(bytes: Array(text.utf8), level: level)
  }

  // MARK: Capacity and blocks

  /// Per version: (error correction codewords per block, [(blocks, data codewords each)]).
  static let blocks: [ErrorCorrection: [(ec: Int, groups: [(count: Int, data: Int)])]] = [
    .low: [
      (7, [(1, 19)]), (10, [(1, 34)]), (15, [(1, 55)]), (20, [(1, 80)]), (26, [(1, 108)]),
      (18, [(2, 68)]), (20, [(2, 78)]), (24, [(2, 97)]), (30, [(2, 116)]),
      (18, [(2, 68), (2, 69)]),
    ],
    .medium: [
      (10, [(1, 16)]), (16, [(1, 28)]), (26, [(1, 44)]), (18, [(2, 32)]), (24, [(2, 43)]),
      (16, [(4, 27)]), (18, [(4, 31)]), (22, [(2, 38), (2, 39)]), (22, [(3, 36), (2, 37)]),
      (26, [(4, 43), (1, 44)]),
    ],
  ]

  /// The data codewords of `version` at `level`.
  static func dataCodewords(_ version: Int, _ level: ErrorCorrection) -> Int {
    (blocks[level]?[version - 1].groups ?? []).reduce(0) { $0 + $1.count * $1.data }
  }

  /// The most bytes `version` holds at `level`: the mode (4 bits) and count (8 bits below
  /// version 10, 16 from it) come first, after the UTF-8 designator (12 bits) when needed.
  static func capacity(_ version: Int, _ level: ErrorCorrection, utf8: Bool = false) -> Int {
    (dataCodewords(version, level) * 8 - 4 - countBits(version) - (utf8 ? 12 : 0)) / 8
  }

  static func countBits(_ version: Int) -> Int { version < 10 ? 8 : 16 }

  /// The final sequence: data and error correction codewords, interleaved block by block.
  static func codewords(_ bytes: [UInt8], version: Int, level: ErrorCorrection, utf8: Bool)
    -> [UInt8]
  {
    var bits = BitBuffer()
    if utf8 {
      bits.append(0b0111, count: 4)  // ECI
      bits.append(26, count: 8)  // UTF-8
    }
    bits.append(0b0100, count: 4)
    bits.append(bytes.count, count: countBits(version))
    for byte in bytes { bits.append(Int(byte), count: 8) }
    let capacity = dataCodewords(version, level) * 8
    bits.append(0, count: min(4, capacity - bits.count))
    bits.append(0, count: (8 - bits.count % 8) % 8)
    var data = bits.bytes
    var pad: UInt8 = 0xEC
    while data.count < capacity / 8 {
      data.append(pad)
      pad = pad == 0xEC ? 0x11 : 0xEC
    }
    guard let layout = blocks[level]?[version - 1] else { return data }
    var dataBlocks: [[UInt8]] = []
    var offset = 0
    for group in layout.groups {
      for _ in 0..<group.count {
        dataBlocks.append(Array(data[offset..<offset + group.data]))
        offset += group.data
      }
    }
    let ecBlocks = dataBlocks.map { ReedSolomon.remainder($0, degree: layout.ec) }
    var result: [UInt8] = []
    for index in 0..<(dataBlocks.map(\.count).max() ?? 0) {
      for block in dataBlocks where index < block.count { result.append(block[index]) }
    }
    for index in 0..<layout.ec {
      for block in ecBlocks { result.append(block[index]) }
    }
    return result
  }
}

/// Bits appended most significant first.
struct BitBuffer {
  private(set) var bits: [Bool] = []

  var count: Int { bits.count }

  mutating func append(_ value: Int, count: Int) {
    guard count > 0 else { return }
    for shift in stride(from: count - 1, through: 0, by: -1) {
      bits.append(value >> shift & 1 == 1)
    }
  }

  /// The bits as bytes (the count is a multiple of 8 when this is read).
  var bytes: [UInt8] {
    stride(from: 0, to: bits.count, by: 8).map { start in
      bits[start..<min(start + 8, bits.count)].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
    }
  }
}

/// Reed-Solomon error correction over GF(256) with the QR polynomial x⁸+x⁴+x³+x²+1.
enum ReedSolomon {
  static let (exponents, logarithms): ([UInt8], [Int]) = {
    var exponents = [UInt8](repeating: 0, count: 256)
    var logarithms = [Int](repeating: 0, count: 256)
    var value = 1
    for power in 0..<255 {
      exponents[power] = UInt8(value)
      logarithms[value] = power
      value <<= 1
      if value & 0x100 != 0 { value ^= 0x11D }
    }
    exponents[255] = exponents[0]
    return (exponents, logarithms)
  }()

  static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
    guard a != 0, b != 0 else { return 0 }
    return exponents[(logarithms[Int(a)] + logarithms[Int(b)]) % 255]
  }

  /// The generator polynomial of `degree`, highest coefficient (1) first.
  static func generator(_ degree: Int) -> [UInt8] {
    var polynomial: [UInt8] = [1]
    for root in 0..<degree {
      var next = [UInt8](repeating: 0, count: polynomial.count + 1)
      for (index, coefficient) in polynomial.enumerated() {
        next[index] ^= coefficient
        next[index + 1] ^= multiply(coefficient, exponents[root])
      }
      polynomial = next
    }
    return polynomial
  }

  /// The `degree` error correction codewords of `data`.
  static func remainder(_ data: [UInt8], degree: Int) -> [UInt8] {
    let generator = generator(degree)
    var remainder = [UInt8](repeating: 0, count: degree)
    for byte in data {
      let factor = byte ^ remainder[0]
      remainder.removeFirst()
      remainder.append(0)
      for index in 0..<degree { remainder[index] ^= multiply(generator[index + 1], factor) }
    }
    return remainder
  }
}
