import TestSupport
import Testing

/// The command line's first promises: version, help, and usage errors with exit code 2.
@Suite struct UsageTests {
  @Test func printsTheVersion() async throws {
    let result = try await ChildProcess.run(Products.authtui, ["--version"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("authtui "))
    #expect(result.stdout.split(separator: " ").last?.contains(".") == true)
  }

  @Test func listsEveryCommandAndTheExitCodesInHelp() async throws {
    let result = try await ChildProcess.run(Products.authtui, ["--help"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("demo"))
    #expect(result.stdout.contains("--vault PATH"))
    #expect(result.stdout.contains("5 sign-in needed"))
  }

  @Test func explainsOneCommandWithHelpCommand() async throws {
    let viaHelp = try await ChildProcess.run(Products.authtui, ["help", "demo"])
    let viaFlag = try await ChildProcess.run(Products.authtui, ["demo", "--help"])
    #expect(viaHelp.status == 0)
    #expect(viaHelp.stdout.hasPrefix("Usage: authtui demo"))
    #expect(viaHelp.stdout == viaFlag.stdout)
  }

  @Test func refusesAnUnknownCommandWithExitTwoAndASuggestion() async throws {
    let result = try await ChildProcess.run(Products.authtui, ["dmeo"])
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "authtui: unknown command 'dmeo' (did you mean `authtui demo`? `authtui --help` lists every command)\n"
    )
  }

  @Test func refusesAnUnknownOptionWithExitTwoOnOneLine() async throws {
    let result = try await ChildProcess.run(Products.authtui, ["demo", "--frobnicate"])
    #expect(result.status == 2)
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(result.stderr.contains("unknown option '--frobnicate' for 'demo'"))
  }

  @Test func aMistypedOptionIsAnsweredWithTheClosestOne() async throws {
    for (arguments, line) in [
      (["list", "--jsn"], "authtui: unknown option '--jsn' for 'list' (did you mean --json?)\n"),
      (["--vaul", "/v.db", "list"], "authtui: unknown option '--vaul' (did you mean --vault?)\n"),
    ] {
      let result = try await ChildProcess.run(Products.authtui, arguments)
      #expect(result.status == 2)
      #expect(result.stdout.isEmpty)
      #expect(result.stderr == line)
    }
  }

  /// `login --json` reports a refused command line as an `error` event too, as it reports any
  /// other failure, so that a script reading the events sees why it ended.
  @Test func loginJSONReportsARefusedCommandLineAsAnErrorEvent() async throws {
    let result = try await ChildProcess.run(
      Products.authtui, ["login", "x", "--timeout", "9", "--json"])
    let message =
      "--timeout must be at least 10 seconds, not 9 (for example --timeout 300, or leave it out "
      + "for the provider's)"
    #expect(result.status == 2)
    #expect(
      result.stdout == #"{"event":"error","error":"usage","message":""# + message + "\"}\n")
    #expect(result.stderr == "authtui: \(message)\n")
  }

  @Test func refusesAGlobalOptionWithoutItsValue() async throws {
    let result = try await ChildProcess.run(Products.authtui, ["--vault"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("--vault needs a value"))
  }

  @Test func refusesHelpForAnUnknownCommand() async throws {
    let result = try await ChildProcess.run(Products.authtui, ["help", "frob"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("unknown command 'frob'"))
  }

  /// The interactive UI and the demo need a terminal; without one they say what to use instead.
  @Test(arguments: [[], ["demo"]]) func theUIRefusesToRunWithoutATerminal(arguments: [String])
    async throws
  {
    let result = try await ChildProcess.run(Products.authtui, arguments)
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "authtui: the interactive UI needs a terminal; for scripts use `authtui list`, "
        + "`authtui token ACCOUNT` or `authtui login PROVIDER`\n")
  }
}
