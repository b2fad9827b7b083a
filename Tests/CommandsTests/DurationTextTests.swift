import Testing

@testable import Commands

/// `--cache DURATION` (and any duration option): the forms people write, and the refusal.
@Suite struct DurationTextTests {
  @Test func aNumberWithAUnitOrABareNumberOfSecondsIsRead() {
    #expect(DurationText.seconds("90s") == 90)
    #expect(DurationText.seconds("15m") == 900)
    #expect(DurationText.seconds("8h") == 28_800)
    #expect(DurationText.seconds("2d") == 172_800)
    #expect(DurationText.seconds("600") == 600)
    #expect(DurationText.seconds("007m") == 420)
  }

  @Test func anythingElseIsNotADuration() {
    for text in [
      "", "m", "1.5h", "+5", "-5", "5 m", "5M", "5w", "٣m", "1h30m", "99999999999999999999d",
    ] {
      #expect(DurationText.seconds(text) == nil, "\(text)")
    }
  }

  @Test func aDurationIsWrittenInTheLargestWholeUnit() {
    #expect(DurationText.words(604_800) == "7d")
    #expect(DurationText.words(5_400) == "90m")
    #expect(DurationText.words(3_600) == "1h")
    #expect(DurationText.words(45) == "45s")
  }

  @Test func theOptionTakesOneSecondToTheLongestAndNamesTheFormsOtherwise() throws {
    let type = ValueType<Duration>.duration(longest: .seconds(7 * 86_400))
    let context = ValueContext(
      name: "--cache", example: nil, command: "vault unlock", usage: "vault unlock --cache DURATION"
    )
    #expect(try type.read("7d", context) == .seconds(604_800))
    #expect(try type.read("1", context) == .seconds(1))
    for text in ["604801", "0", "0s", "soon"] {
      #expect(
        throws: CommandFailure(
          exitCode: .usage,
          message: "--cache takes a duration such as 90s, 15m, 8h or 2d (a bare number is "
            + "seconds), from 1s to 7d, not \"\(text)\"")
      ) { try type.read(text, context) }
    }
  }

  /// `--idle-timeout` reads the same forms, and takes 0 (in any unit) for never.
  @Test func theIdleTimeoutTakesTheSameFormsAndZeroForNever() throws {
    let type = ValueType<Int>.durationOrNever
    let context = ValueContext(
      name: "--idle-timeout", example: "0", command: "agent start",
      usage: "agent start [--idle-timeout DURATION]")
    let read: [(String, Int)] = [
      ("90s", 90), ("15m", 900), ("8h", 28_800), ("2d", 172_800), ("3600", 3600), ("0", 0),
      ("0m", 0), ("365d", 31_536_000),
    ]
    for (text, seconds) in read {
      #expect(try type.read(text, context) == seconds, "\(text)")
    }
    for text in ["366d", "31536001", "-1", "1.5h", "soon", ""] {
      #expect(
        throws: CommandFailure(
          exitCode: .usage,
          message: "--idle-timeout takes a duration such as 90s, 15m, 8h or 2d (a bare number is "
            + "seconds), from 0 (never) to 365d, not \"\(text)\"")
      ) { try type.read(text, context) }
    }
  }
}
