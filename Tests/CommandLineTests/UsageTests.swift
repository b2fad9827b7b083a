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

  /// `export ACCOUNT --env-file --clipboard` forgot the path: the token must not go to a file
  /// named `--clipboard`. From the front too (`token`'s shortcut leaves such a line alone).
  @Test func refusesAnOptionWhereAValueBelongs() async throws {
    let folder = try TemporaryDirectory()
    let environment = ChildProcess.environment([
      "AUTHTUI_VAULT": folder.file("vault.db"), "AUTHTUI_NO_AGENT": "1",
      "AUTHTUI_CONFIG_DIR": folder.file("config"),
    ])
    for (arguments, line) in [
      (
        ["export", "sandbox/alice", "--env-file", "--clipboard"],
        "authtui: --env-file needs PATH, not the option --clipboard "
          + "(write --env-file PATH; --env-file=--clipboard if that word is meant)\n"
      ),
      (
        ["token", "sandbox/alice", "--vault", "--min-valid=5"],
        "authtui: --vault needs PATH, not the option --min-valid=5 "
          + "(write --vault PATH; --vault=--min-valid=5 if that word is meant)\n"
      ),
      (
        ["exec", "sandbox/alice", "--var", "--", "env"],
        "authtui: --var needs NAME, not --, which ends the options (write --var NAME)\n"
      ),
    ] {
      let result = try await ChildProcess.run(
        Products.authtui, arguments, environment: environment)
      #expect(result.status == 2, "\(arguments): \(result.stderr)")
      #expect(result.stdout.isEmpty)
      #expect(result.stderr == line)
    }
  }

  /// An empty path (`--env-file "$FILE"` with FILE unset) is a usage error naming the option:
  /// `export` failed later (exit 1), and `--vault ""` and `--config ""` fell back to the
  /// default vault and configuration, the interactive UI included.
  @Test func refusesAnEmptyPath() async throws {
    let folder = try TemporaryDirectory()
    let environment = ChildProcess.environment([
      "AUTHTUI_VAULT": folder.file("vault.db"), "AUTHTUI_NO_AGENT": "1",
      "AUTHTUI_CONFIG_DIR": folder.file("config"),
    ])
    func refusal(_ option: String, _ what: String, _ variable: String) -> String {
      "authtui: \(option) is empty; give the path of \(what) (a shell variable that is unset or "
        + "empty, as in \(option) \"$\(variable)\", gives an empty word)\n"
    }
    let file = refusal("--env-file", "a file", "FILE")
    let vault = refusal("--vault", "a file", "FILE")
    let config = refusal("--config", "a folder", "DIR")
    for (arguments, line) in [
      (["export", "sandbox/alice", "--env-file", ""], file),
      (["export", "sandbox/alice", "--env-file="], file),
      (["--vault", "", "list"], vault),
      (["token", "sandbox/alice", "--vault="], vault),
      (["--vault", ""], vault),
      (["list", "--config", ""], config),
      (["--config", "", "demo"], config),
    ] {
      let result = try await ChildProcess.run(
        Products.authtui, arguments, environment: environment)
      #expect(result.status == 2, "\(arguments): \(result.stderr)")
      #expect(result.stdout.isEmpty, "\(arguments)")
      #expect(result.stderr == line, "\(arguments)")
    }
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

  /// A control character typed into an account or provider name (a line break from a
  /// script's variable) is refused before anything is looked up, shown escaped: echoed as it
  /// is, it could forge a line in a log or send the terminal a sequence.
  @Test func refusesAControlCharacterInANameWithExitTwoShowingItEscaped() async throws {
    for (arguments, shown, example, list) in [
      (
        ["token", "sandbox/bob\nauthtui: forged"], #""sandbox/bob\u{A}authtui: forged""#,
        "simkl/alice", "`authtui list`"
      ),
      (
        ["logout", "sandbox/\u{1B}]0;x\u{7}"], #""sandbox/\u{1B}]0;x\u{7}""#, "simkl/alice",
        "`authtui list`"
      ),
      (["login", "sandbox\r"], #""sandbox\u{D}""#, "simkl", "`authtui providers`"),
    ] {
      let name = arguments[0] == "login" ? "PROVIDER" : "ACCOUNT"
      let code = shown.contains("u{A}") ? "A" : shown.contains("u{1B}") ? "1B" : "D"
      let result = try await ChildProcess.run(
        Products.authtui, arguments,
        environment: ChildProcess.environment(["AUTHTUI_PASSPHRASE": "unused"]))
      #expect(result.status == 2, "\(arguments): \(result.stderr)")
      #expect(result.stdout.isEmpty)
      #expect(
        result.stderr
          == "authtui: \(name) \(shown) holds U+\(code), a control character or direction "
          + "mark, which no name holds; type the name alone, such as \(example) (\(list) "
          + "shows them)\n", "\(arguments)")
    }
  }

  /// Other words a message echoes (an unknown command, an env file's path) show a control
  /// character escaped, and the message stays one line.
  @Test func echoesOtherTypedWordsWithControlCharactersEscaped() async throws {
    for (arguments, shown) in [
      (["x\ny"], "'x\\u{A}y'"), (["help", "x\ny"], "'x\\u{A}y'"),
      (["export", "sandbox/a", "--env-file", "/nonexistent/a\nb"], "/nonexistent/a\\u{A}b"),
    ] {
      let result = try await ChildProcess.run(
        Products.authtui, arguments,
        environment: ChildProcess.environment(["AUTHTUI_PASSPHRASE": "unused"]))
      #expect(result.status != 0)
      #expect(result.stderr.contains(shown), "\(arguments): \(result.stderr)")
      #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments)")
    }
  }
}
