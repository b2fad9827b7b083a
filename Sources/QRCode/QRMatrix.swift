/// The module grid of one QR symbol while it is built: the function patterns (finders,
/// separators, timing, alignment, dark module, format and version areas) are drawn and
/// marked reserved first; data then fills the rest in the standard's zigzag order.
struct QRMatrix {
  let version: Int
  let size: Int
  private(set) var dark: [[Bool]]
  private var reserved: [[Bool]]

  /// Alignment pattern centres per version (ISO/IEC 18004 Annex E), versions 2…10.
  static let alignment: [[Int]] = [
    [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46],
    [6, 28, 50],
  ]

  init(version: Int) {
    self.version = version
    size = 17 + 4 * version
    dark = Array(repeating: Array(repeating: false, count: size), count: size)
    reserved = dark
    for (row, column) in [(0, 0), (0, size - 7), (size - 7, 0)] { drawFinder(row, column) }
    for index in 8..<(size - 8) {
      set(6, index, index % 2 == 0)
      set(index, 6, index % 2 == 0)
    }
    // Every pair of centres but the three under the finders (those on the timing lines are
    // drawn over them).
    let centres = Self.alignment[version - 1]
    let last = centres.count - 1
    for (i, row) in centres.enumerated() {
      for (j, column) in centres.enumerated()
      where !((i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0)) {
        drawAlignment(row, column)
      }
    }
    // The dark module, and room for the format information (drawn per mask).
    set(4 * version + 9, 8, true)
    for index in 0..<9 {
      reserve(8, index)
      reserve(index, 8)
    }
    for index in 0..<8 {
      reserve(8, size - 1 - index)
      reserve(size - 1 - index, 8)
    }
    if version >= 7 { drawVersion() }
  }

  private mutating func set(_ row: Int, _ column: Int, _ value: Bool) {
    dark[row][column] = value
    reserved[row][column] = true
  }

  private mutating func reserve(_ row: Int, _ column: Int) { reserved[row][column] = true }

  private mutating func drawFinder(_ top: Int, _ left: Int) {
    for row in -1...7 {
      for column in -1...7 {
        let (r, c) = (top + row, left + column)
        guard r >= 0, r < size, c >= 0, c < size else { continue }
        let ring = max(abs(row - 3), abs(column - 3))
        set(r, c, ring != 2 && ring != 4)
      }
    }
  }

  private mutating func drawAlignment(_ centreRow: Int, _ centreColumn: Int) {
    for row in -2...2 {
      for column in -2...2 {
        set(centreRow + row, centreColumn + column, max(abs(row), abs(column)) != 1)
      }
    }
  }

  /// Version information (versions 7 and up): 6 bits and their BCH(18, 6) code, twice.
  private mutating func drawVersion() {
    let bits = Self.versionBits(version)
    for index in 0..<18 {
      let value = bits >> index & 1 == 1
      let (a, b) = (index / 3, size - 11 + index % 3)
      set(a, b, value)
      set(b, a, value)
    }
  }

  static func versionBits(_ version: Int) -> Int {
    var remainder = version
    for _ in 0..<12 { remainder = remainder << 1 ^ (remainder >> 11 & 1) * 0x1F25 }
    return version << 12 | remainder
  }

  /// The 15 format bits of `level` and `mask`: BCH(15, 5), masked with 101010000010010.
  static func formatBits(level: QRCode.ErrorCorrection, mask: Int) -> Int {
    let data = level.formatBits << 3 | mask
    var remainder = data
    for _ in 0..<10 { remainder = remainder << 1 ^ (remainder >> 9 & 1) * 0x537 }
    return (data << 10 | remainder) ^ 0x5412
  }

  mutating func drawFormat(level: QRCode.ErrorCorrection, mask: Int) {
    let bits = Self.formatBits(level: level, mask: mask)
    func bit(_ index: Int) -> Bool { bits >> index & 1 == 1 }
    // Around the top-left finder: bits 0–5 down column 8, 6–7 beside the timing pattern, 8
    // at the corner, 9–14 along row 8 leftwards.
    for index in 0...5 { set(index, 8, bit(index)) }
    set(7, 8, bit(6))
    set(8, 8, bit(7))
    set(8, 7, bit(8))
    for index in 9...14 { set(8, 14 - index, bit(index)) }
    // The copy: bits 0–7 along row 8 from the right edge, 8–14 up column 8 from the bottom.
    for index in 0...7 { set(8, size - 1 - index, bit(index)) }
    for index in 8...14 { set(size - 15 + index, 8, bit(index)) }
  }

  /// Fills the free modules with `codewords`, most significant bit first, in two-column
  /// stripes from the bottom right, up and down in turn, jumping over the timing column.
  mutating func place(_ codewords: [UInt8]) {
    var bitIndex = 0
    let total = codewords.count * 8
    var column = size - 1
    var upward = true
    while column > 0 {
      if column == 6 { column -= 1 }
      for step in 0..<size {
        let row = upward ? size - 1 - step : step
        for c in [column, column - 1] where !reserved[row][c] {
          if bitIndex < total {
            dark[row][c] = codewords[bitIndex / 8] >> (7 - bitIndex % 8) & 1 == 1
          }
          bitIndex += 1
        }
      }
      upward.toggle()
      column -= 2
    }
  }

  static func masked(_ mask: Int, _ row: Int, _ column: Int) -> Bool {
    switch mask {
    case 0: return (row + column) % 2 == 0
    case 1: return row % 2 == 0
    case 2: return column % 3 == 0
    case 3: return (row + column) % 3 == 0
    case 4: return (row / 2 + column / 3) % 2 == 0
    case 5: return row * column % 2 + row * column % 3 == 0
    case 6: return (row * column % 2 + row * column % 3) % 2 == 0
    default: return ((row + column) % 2 + row * column % 3) % 2 == 0
    }
  }

  mutating func apply(mask: Int) {
    for row in 0..<size {
      for column in 0..<size where !reserved[row][column] && Self.masked(mask, row, column) {
        dark[row][column].toggle()
      }
    }
  }

  /// The standard's penalty (rules N1–N4): lower is easier to read.
  func penalty() -> Int {
    var score = 0
    let columns = (0..<size).map { column in (0..<size).map { dark[$0][column] } }
    for line in dark + columns {
      var run = 1
      for index in 1..<size {
        if line[index] == line[index - 1] {
          run += 1
        } else {
          if run >= 5 { score += run - 2 }
          run = 1
        }
      }
      if run >= 5 { score += run - 2 }
      // 1:1:3:1:1 finder-like runs with four light modules on either side.
      let pattern: [Bool] = [true, false, true, true, true, false, true]
      let light = [Bool](repeating: false, count: 4)
      for start in 0...(size - 11) {
        let window = Array(line[start..<start + 11])
        if window == light + pattern || window == pattern + light { score += 40 }
      }
    }
    for row in 0..<(size - 1) {
      for column in 0..<(size - 1) {
        let value = dark[row][column]
        if dark[row][column + 1] == value && dark[row + 1][column] == value
          && dark[row + 1][column + 1] == value
        {
          score += 3
        }
      }
    }
    let darkCount = dark.reduce(0) { $0 + $1.filter { $0 }.count }
    let percent = darkCount * 100 / (size * size)
    score += abs(percent - 50) / 5 * 10
    return score
  }
}
