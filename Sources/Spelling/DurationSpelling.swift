/// Durations as people write them (`90s`, `15m`, `8h`, `2d`, or a bare number of seconds) and
/// as messages show them: the one spelling of the command line's DURATION and of config.json's
/// durations (`agent.idle_timeout`).
public enum DurationSpelling {
  /// A year in seconds: the longest duration any option or setting takes.
  public static let year = 31_536_000

  private static let units: [(suffix: Character, seconds: Int)] = [
    ("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1),
  ]

  /// The seconds `text` stands for: digits with an optional unit (`s`, `m`, `h`, `d`); nil
  /// for anything else, or too large to count.
  public static func seconds(_ text: String) -> Int? {
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

  /// `seconds` in the largest unit that writes it whole: `7d`, `90m`, `45s`.
  public static func words(_ seconds: Int) -> String {
    let unit = units.first { seconds % $0.seconds == 0 && seconds >= $0.seconds } ?? (("s", 1))
    return "\(seconds / unit.seconds)\(unit.suffix)"
  }

  /// What a duration from `shortest` to `longest` seconds may be written as, for a refusal:
  /// "a duration such as 90s, 15m, 8h or 2d (a bare number is seconds), from 0 (never) to
  /// 365d" (a shortest of 0 means never).
  public static func accepted(from shortest: Int, to longest: Int) -> String {
    let least = shortest == 0 ? "0 (never)" : words(shortest)
    return "a duration such as 90s, 15m, 8h or 2d (a bare number is seconds), from \(least) "
      + "to \(words(longest))"
  }
}
