extension ValueType where Value == Duration {
  /// The longest duration taken: a year, as for the options in seconds.
  static var longestDuration: Duration { .seconds(31_536_000) }

  /// A positive duration: a whole number followed by `s`, `m`, `h` or `d` (`90s`, `15m`, `8h`,
  /// `2d`), a bare number being seconds; at most a year. The one reading of DURATION
  /// (`agent start --lifetime`).
  static var duration: ValueType {
    ValueType(placeholder: "DURATION") { text, context throws(CommandFailure) in
      guard let duration = Self.duration(text) else {
        throw CommandFailure(
          exitCode: .usage,
          message: "\(context.name) takes a positive duration of at most a year: a whole "
            + "number with s, m, h or d (\(context.name) 90s, 15m, 8h; a bare number is "
            + "seconds), not \"\(text)\"")
      }
      return duration
    }
  }

  /// The duration `text` writes, or nil when it is none `duration` reads.
  static func duration(_ text: String) -> Duration? {
    let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
    var digits = Substring(text)
    var unit: Int64 = 1
    if let last = digits.last, let seconds = units[last] {
      unit = seconds
      digits = digits.dropLast()
    }
    guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCIIDigit),
      let number = Int64(digits), number > 0
    else { return nil }
    let duration = Duration.seconds(number * unit)
    return duration <= longestDuration ? duration : nil
  }
}

extension Character {
  /// `0` to `9`, and nothing else `isNumber` takes (`٣`, `½`).
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
