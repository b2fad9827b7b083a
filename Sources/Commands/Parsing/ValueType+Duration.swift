import Spelling

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
/// messages show them: `DurationSpelling`'s, which config.json's durations share.
enum DurationText {
  /// A year in seconds: the longest duration any option takes.
  static let year = DurationSpelling.year

  /// The seconds `text` stands for: digits with an optional unit (`s`, `m`, `h`, `d`); nil
  /// for anything else, or too large to count.
  static func seconds(_ text: String) -> Int? { DurationSpelling.seconds(text) }

  /// The seconds `text` stands for, from `shortest` to `longest` (a shortest of 0 means
  /// never); otherwise the usage error naming the forms and the bounds.
  static func read(_ text: String, _ context: ValueContext, from shortest: Int, to longest: Int)
    throws(CommandFailure) -> Int
  {
    guard let seconds = seconds(text), seconds >= shortest, seconds <= longest else {
      throw CommandFailure(
        exitCode: .usage,
        message: "\(context.name) takes "
          + DurationSpelling.accepted(from: shortest, to: longest) + ", not \"\(text)\"")
    }
    return seconds
  }

  /// `seconds` in the largest unit that writes it whole: `7d`, `90m`, `45s`.
  static func words(_ seconds: Int) -> String { DurationSpelling.words(seconds) }
}
