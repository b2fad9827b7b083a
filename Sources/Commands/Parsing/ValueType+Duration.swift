extension ValueType where Value == Duration {
  /// A positive duration of at most a year (`agent start --lifetime`).
  static var duration: ValueType { duration(longest: .seconds(DurationText.year)) }

  /// A positive duration in whole seconds, up to `longest`: a number with its unit (`90s`,
  /// `15m`, `8h`, `2d`) or a bare number of seconds. The refusal names the accepted forms and
  /// the bounds. The one reading of DURATION (`--lifetime`, `vault unlock --cache`,
  /// `--idle-timeout`).
  static func duration(longest: Duration) -> ValueType {
    let most = Int(longest.components.seconds)
    return ValueType(placeholder: "DURATION") { text, context throws(CommandFailure) in
      .seconds(try DurationText.read(text, context, from: 1, to: most))
    }
  }
}

extension ValueType where Value == Int {
  /// A duration in whole seconds from 0, which means never, to a year (`--idle-timeout`):
  /// read as `duration` reads DURATION.
  static var durationOrNever: ValueType {
    ValueType(placeholder: "DURATION") { text, context throws(CommandFailure) in
      try DurationText.read(text, context, from: 0, to: DurationText.year)
    }
  }
}

/// Durations as people write them on the command line (`90s`, `15m`, `8h`, `2d`) and as
/// messages show them.
enum DurationText {
  /// A year in seconds: the longest duration any option takes.
  static let year = 31_536_000

  private static let units: [(suffix: Character, seconds: Int)] = [
    ("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1),
  ]

  /// The seconds `text` stands for: digits with an optional unit (`s`, `m`, `h`, `d`); nil
  /// for anything else, or too large to count.
  static func seconds(_ text: String) -> Int? {
    var digits = Substring(text)
    var unit = 1
    if let last = text.last, let match = units.first(where: { $0.suffix == last }) {
      digits = digits.dropLast()
      unit = match.seconds
    }
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
      let number = Int(digits)
    else { return nil }
    let (seconds, overflow) = number.multipliedReportingOverflow(by: unit)
    return overflow ? nil : seconds
  }

  /// The seconds `text` stands for, from `shortest` to `longest` (a shortest of 0 means
  /// never); otherwise the usage error naming the forms and the bounds.
  static func read(_ text: String, _ context: ValueContext, from shortest: Int, to longest: Int)
    throws(CommandFailure) -> Int
  {
    guard let seconds = seconds(text), seconds >= shortest, seconds <= longest else {
      let least = shortest == 0 ? "0 (never)" : words(shortest)
      throw CommandFailure(
        exitCode: .usage,
        message: "\(context.name) takes a duration such as 90s, 15m, 8h or 2d (a bare number "
          + "is seconds), from \(least) to \(words(longest)), not \"\(text)\"")
    }
    return seconds
  }

  /// `seconds` in the largest unit that writes it whole: `7d`, `90m`, `45s`.
  static func words(_ seconds: Int) -> String {
    let unit = units.first { seconds % $0.seconds == 0 && seconds >= $0.seconds } ?? (("s", 1))
    return "\(seconds / unit.seconds)\(unit.suffix)"
  }
}
