import XCTest

@testable import Commands

final class ArgumentParserTests: XCTestCase {
  private let parser = ArgumentParser(catalog: .standard)

  private func parse(_ words: String...) throws -> Invocation {
    try parser.parse(words)
  }

  private func usageError(_ words: String...) -> UsageError? {
    do {
      _ = try parser.parse(words)
      return nil
    } catch {
      return error
    }
  }

  func testNoWordsIsTheInteractiveUI() throws {
    let invocation = try parse()
    XCTAssertEqual(invocation.command, "")
    XCTAssertEqual(invocation.global, GlobalOptions(try parse()))
  }

  func testGlobalOptionsGoBeforeOrAfterTheCommand() throws {
    let before = try parse("--vault", "/v.db", "--config=/c", "list", "--no-color")
    XCTAssertEqual(before.command, "list")
    XCTAssertEqual(before.global.vault, "/v.db")
    XCTAssertEqual(before.global.config, "/c")
    XCTAssertTrue(before.global.noColor)
    XCTAssertNil(before.global.theme)
    let after = try parse("list", "--vault", "/v.db", "--config", "/c", "--no-color")
    XCTAssertEqual(after.global, before.global)
  }

  func testAnEmptyPathIsRefusedNamingTheOption() throws {
    XCTAssertEqual(
      usageError("--vault", "", "list")?.line,
      "authtui: --vault is empty; give the path of a file (a shell variable that is unset or "
        + "empty, as in --vault \"$FILE\", gives an empty word)")
    XCTAssertEqual(
      usageError("--config=")?.line,
      "authtui: --config is empty; give the path of a folder (a shell variable that is unset or "
        + "empty, as in --config \"$DIR\", gives an empty word)")
    // Help needs no vault.
    XCTAssertTrue(try parse("--vault", "", "--help").wantsHelp)
    XCTAssertThrowsError(try ExportCommand(try parse("export", "a", "--env-file", ""))) {
      XCTAssertEqual(
        ($0 as? CommandFailure)?.message,
        "--env-file is empty; give the path of a file (a shell variable that is unset or empty, "
          + "as in --env-file \"$FILE\", gives an empty word)")
      XCTAssertEqual(($0 as? CommandFailure)?.exitCode, .usage)
    }
    // It said "--client-secret-file  does not exist".
    XCTAssertThrowsError(
      try ProvidersAddCommand(
        try parse(
          "providers", "add", "x", "--issuer", "https://id.example.com",
          "--client-secret-file", ""))
    ) {
      XCTAssertEqual(
        ($0 as? CommandFailure)?.message,
        "--client-secret-file is empty; give the path of a file (a shell variable that is unset "
          + "or empty, as in --client-secret-file \"$FILE\", gives an empty word)")
    }
  }

  func testAnOptionIsNeverTakenAsTheValueBeforeIt() throws {
    XCTAssertEqual(
      usageError("export", "a", "--env-file", "--clipboard")?.line,
      "authtui: --env-file needs PATH, not the option --clipboard "
        + "(write --env-file PATH; --env-file=--clipboard if that word is meant)")
    XCTAssertEqual(
      usageError("exec", "a", "--var", "--", "env")?.message,
      "--var needs NAME, not --, which ends the options")
    XCTAssertEqual(
      usageError("list", "--vault", "-h")?.message, "--vault needs PATH, not the option -h")
    XCTAssertEqual(
      usageError("token", "a", "--min-valid", "--vault=/v.db")?.message,
      "--min-valid needs SECONDS, not the option --vault=/v.db")
    XCTAssertEqual(
      usageError("token", "a", "--for", "GET", "--header")?.message,
      "--for needs METHOD URL, not the option --header")
    // Words that are no option here stay values, for the value's own reading to judge.
    XCTAssertEqual(try parse("export", "a", "--env-file", "-").values["env-file"], "-")
    XCTAssertEqual(try parse("token", "a", "--min-valid", "-5").values["min-valid"], "-5")
    XCTAssertEqual(try parse("login", "x", "--label", "--odd").values["label"], "--odd")
    XCTAssertEqual(
      try parse("export", "a", "--env-file=--clipboard").values["env-file"], "--clipboard")
  }

  func testRepeatedOptionKeepsItsLastValue() throws {
    XCTAssertEqual(try parse("list", "--vault", "/a", "--vault=/b").global.vault, "/b")
  }

  func testListOptionsAreTyped() throws {
    XCTAssertTrue(try ListCommand(try parse("list", "--json")).json)
    XCTAssertFalse(try ListCommand(try parse("list")).json)
  }

  func testLoginOptionsAreTyped() throws {
    let options = try LoginCommand(
      try parse(
        "login", "simkl", "--flow", "device", "--label=work", "--no-browser", "--timeout", "90"))
    XCTAssertEqual(options.provider, "simkl")
    XCTAssertEqual(options.flow, .device)
    XCTAssertEqual(options.label, "work")
    XCTAssertTrue(options.noBrowser)
    XCTAssertEqual(options.timeout, 90)
    let defaults = try LoginCommand(try parse("login", "simkl"))
    XCTAssertNil(defaults.flow)
    XCTAssertNil(defaults.timeout)
    XCTAssertFalse(defaults.noBrowser)
  }

  func testLoginRefusesAnUnknownFlowAndAShortTimeout() throws {
    XCTAssertThrowsError(try LoginCommand(try parse("login", "simkl", "--flow", "magic"))) {
      XCTAssertEqual(
        $0 as? CommandFailure,
        CommandFailure(exitCode: .usage, message: "--flow is pkce, device or pin, not \"magic\""))
    }
    XCTAssertThrowsError(try LoginCommand(try parse("login", "simkl", "--timeout", "9"))) {
      XCTAssertEqual(
        $0 as? CommandFailure,
        CommandFailure(
          exitCode: .usage,
          message: "--timeout must be at least 10 seconds, not 9 (for example --timeout 300, "
            + "or leave it out for the provider's)"))
    }
    XCTAssertEqual(
      try LoginCommand(try parse("login", "simkl", "--timeout", "10")).timeout, 10)
  }

  func testSecondsMustBeAWholeNumberWithinAYear() throws {
    for text in ["-1", "1.5", "soon", ""] {
      XCTAssertThrowsError(try TokenCommand(try parse("token", "a", "--min-valid", text))) {
        XCTAssertEqual(
          ($0 as? CommandFailure)?.message,
          "--min-valid takes a whole number of seconds, not \"\(text)\" (for example --min-valid 60)"
        )
      }
    }
    for text in ["31536001", "99999999999999999999"] {
      XCTAssertThrowsError(try TokenCommand(try parse("token", "a", "--min-valid", text))) {
        XCTAssertEqual(
          ($0 as? CommandFailure)?.message,
          "--min-valid takes at most 31536000 seconds (a year), not \"\(text)\" (for example "
            + "--min-valid 60)")
      }
    }
    XCTAssertEqual(
      try TokenCommand(try parse("token", "a", "--min-valid", "31536000")).minimumValidity,
      31_536_000)
    XCTAssertEqual(try TokenCommand(try parse("token", "simkl/alice")).minimumValidity, 60)
  }

  func testExportNeedsExactlyOneDestination() throws {
    let env = try ExportCommand(
      try parse("export", "a", "--env-file", "/tmp/e", "--var", "TOKEN"))
    XCTAssertEqual(env.envFile, "/tmp/e")
    XCTAssertEqual(env.variable, "TOKEN")
    let clipboard = try ExportCommand(
      try parse("export", "a", "--clipboard", "--clear-after", "0"))
    XCTAssertNil(clipboard.envFile)
    XCTAssertEqual(clipboard.clearAfter, 0)
    XCTAssertEqual(
      try ExportCommand(try parse("export", "a", "--clipboard")).clearAfter, 45)
    for words in [["export", "a"], ["export", "a", "--clipboard", "--env-file", "/tmp/e"]] {
      XCTAssertThrowsError(try ExportCommand(try parser.parse(words))) {
        XCTAssertEqual(($0 as? CommandFailure)?.exitCode, .usage)
      }
    }
    XCTAssertThrowsError(
      try ExportCommand(try parse("export", "a", "--clipboard", "--var", "X"))
    ) {
      XCTAssertEqual(($0 as? CommandFailure)?.message, "--var goes with --env-file")
    }
    XCTAssertThrowsError(
      try ExportCommand(try parse("export", "a", "--env-file", "/tmp/e", "--var", "2FA"))
    ) {
      XCTAssertEqual(
        $0 as? CommandFailure,
        CommandFailure(
          exitCode: .usage,
          message: "\"2FA\" is not a shell variable name; use letters, digits and _ (not "
            + "starting with a digit), for example --var SIMKL_TOKEN"))
    }
  }

  func testLogoutOptionsAreTyped() throws {
    let options = try LogoutCommand(try parse("logout", "#3", "--local-only"))
    XCTAssertEqual(options.account, "#3")
    XCTAssertTrue(options.localOnly)
    XCTAssertFalse(options.noBrowser)
  }

  func testMistypedCommandIsSpelledOut() {
    XCTAssertEqual(
      usageError("lsit")?.line,
      "authtui: unknown command 'lsit' (did you mean `authtui list`? `authtui --help` lists every command)"
    )
  }

  func testCommandOptionBeforeTheCommandSaysWhereItGoes() {
    XCTAssertEqual(
      usageError("--json", "list")?.hint,
      "put command options after the command, e.g. `authtui list --json`")
    XCTAssertEqual(usageError("list", "--flow", "pkce")?.hint, "see `authtui help list`")
    XCTAssertEqual(
      usageError("agent", "--json", "status")?.line,
      "authtui: unknown option '--json' for 'agent' (put it after the action, e.g. "
        + "`authtui agent status --json`)")
  }

  func testAMistypedOptionGetsTheClosestOne() {
    XCTAssertEqual(
      usageError("list", "--jsn")?.line,
      "authtui: unknown option '--jsn' for 'list' (did you mean --json?)")
    XCTAssertEqual(usageError("login", "x", "--flwo", "pkce")?.hint, "did you mean --flow?")
    XCTAssertEqual(usageError("token", "x", "--min-vaild=5")?.hint, "did you mean --min-valid?")
    // The global options count after the command too, and `--help` everywhere.
    XCTAssertEqual(usageError("list", "--vualt", "/v.db")?.hint, "did you mean --vault?")
    XCTAssertEqual(usageError("list", "--hepl")?.hint, "did you mean --help?")
    // Before the command word only the global options (and --version) are suggested.
    XCTAssertEqual(
      usageError("--vaul", "/v.db", "list")?.line,
      "authtui: unknown option '--vaul' (did you mean --vault?)")
    XCTAssertEqual(usageError("--verison")?.hint, "did you mean --version?")
    XCTAssertEqual(usageError("--jsn", "list")?.hint, "see `authtui help`")
    // `--version` is no option after a command, so it is not offered there.
    XCTAssertEqual(usageError("list", "--versio")?.hint, "see `authtui help list`")
    // Nothing close: the pointer to the help, as before.
    XCTAssertEqual(usageError("list", "--frobnicate")?.hint, "see `authtui help list`")
  }

  func testAHiddenOptionIsNeverSuggested() {
    XCTAssertEqual(usageError("agent", "--handover-f", "3")?.hint, "see `authtui help agent`")
  }

  func testFlagTakesNoValueAndAnOptionNeedsOne() {
    XCTAssertEqual(usageError("list", "--json=yes")?.message, "--json takes no value")
    XCTAssertEqual(usageError("token", "a", "--min-valid")?.hint, "write --min-valid SECONDS")
  }

  func testArgumentsAreCounted() {
    XCTAssertEqual(usageError("token")?.message, "'token' needs ACCOUNT")
    XCTAssertEqual(usageError("list", "extra")?.message, "unexpected argument 'extra'")
  }

  func testHelpAndVersionSkipTheArgumentCount() throws {
    XCTAssertTrue(try parse("token", "--help").wantsHelp)
    XCTAssertTrue(try parse("--version").wantsVersion)
    XCTAssertFalse(try parse("list").wantsHelp)
  }

  func testTheWordAfterACommandWithActionsNamesOne() throws {
    let start = try parse("agent", "start", "--idle-timeout", "60")
    XCTAssertEqual(start.command, "agent start")
    XCTAssertEqual(start.values["idle-timeout"], "60")
    XCTAssertEqual(
      try parse("--vault", "/v.db", "agent", "status", "--json").command, "agent status")
    XCTAssertTrue(try AgentStatusCommand(try parse("agent", "status", "--json")).json)
    XCTAssertEqual(try parse("agent", "--idle-timeout", "5").command, "agent")
    XCTAssertNotNil(CommandCatalog.standard.command(named: "agent stop")?.run)
    XCTAssertNil(CommandCatalog.standard.command(named: "agent restart"))
  }

  func testAMistypedActionIsAUsageErrorWithTheClosestOne() throws {
    let error = try XCTUnwrap(usageError("agent", "strat"))
    XCTAssertEqual(error.message, "unknown action 'strat' for 'agent'")
    XCTAssertEqual(
      error.hint, "did you mean `authtui agent start`? `authtui help agent` lists its actions")
    XCTAssertEqual(usageError("agent", "stop", "now")?.message, "unexpected argument 'now'")
    XCTAssertEqual(
      usageError("agent", "stop", "--json")?.message, "unknown option '--json' for 'agent stop'")
  }

  func testDoubleDashEndsTheOptions() throws {
    XCTAssertEqual(try parse("token", "--", "--odd").arguments, ["--odd"])
  }

  func testExecTakesEverythingAfterTheDoubleDashAsTheCommand() throws {
    let invocation = try parse(
      "exec", "simkl/alice", "--var", "TOKEN", "--", "curl", "-H", "--vault", "x")
    XCTAssertEqual(invocation.arguments, ["simkl/alice", "curl", "-H", "--vault", "x"])
    XCTAssertEqual(invocation.positionalsBeforeSeparator, 1)
    let options = try ExecCommand(invocation)
    XCTAssertEqual(options.command, ["curl", "-H", "--vault", "x"])
    XCTAssertEqual(options.variable, "TOKEN")
    XCTAssertNil(options.global.vault)
    XCTAssertEqual(
      try ExecCommand(try parse("exec", "a", "--", "env")).variable, "AUTHTUI_TOKEN")
    XCTAssertNil(try parse("token", "a").positionalsBeforeSeparator)
  }
}

final class HelpTextTests: XCTestCase {
  func testOverviewListsEveryCommandAndTheExitCodes() {
    let overview = CommandCatalog.standard.overview()
    for command in CommandCatalog.standard.commands {
      XCTAssertTrue(overview.contains("\n  \(command.name) "), command.name)
    }
    XCTAssertTrue(
      overview.contains(
        "Exit codes: 0 ok, 1 error, 2 usage, 3 vault locked or wrong passphrase, 4 no such\n"
          + "account or provider"))
    XCTAssertTrue(overview.contains("  --vault PATH "))
  }

  func testCommandHelpShowsItsUsageAndOptions() throws {
    let login = try XCTUnwrap(CommandCatalog.standard.command(named: "login"))
    let help = CommandCatalog.standard.help(for: login)
    XCTAssertTrue(help.hasPrefix("Usage: authtui login PROVIDER [--flow pkce|device|pin]"))
    XCTAssertTrue(help.contains("\n  --flow pkce|device|pin     how to sign in"))
    XCTAssertTrue(help.contains("\n  --json "))
  }

  func testAgentsHelpDocumentsEachActionAndHidesTheHandoverOption() throws {
    let agent = try XCTUnwrap(CommandCatalog.standard.command(named: "agent"))
    let help = CommandCatalog.standard.help(for: agent)
    XCTAssertTrue(
      help.hasPrefix(
        """
        Usage: authtui agent [--idle-timeout DURATION] [--lifetime DURATION]
                             [--confirm forwarded|always]
               authtui agent start [--idle-timeout DURATION] [--lifetime DURATION]
                                   [--confirm forwarded|always]
               authtui agent stop
               authtui agent status [--json]

        """))
    XCTAssertTrue(
      help.contains(
        "\nauthtui agent start [--idle-timeout DURATION] [--lifetime DURATION]\n"
          + "                    [--confirm forwarded|always]\n  Start the agent in the background; "
          + "prints `pid=PID socket=PATH` once it listens.\n"))
    XCTAssertTrue(help.contains("\nauthtui agent status [--json]\n  Show the running agent"))
    XCTAssertTrue(help.contains("\n  --json                     print a JSON object"))
    XCTAssertFalse(help.contains("handover"))
    let start = try XCTUnwrap(CommandCatalog.standard.command(named: "agent start"))
    XCTAssertTrue(
      CommandCatalog.standard.help(for: start).hasPrefix(
        "Usage: authtui agent start [--idle-timeout DURATION] [--lifetime DURATION]\n"
          + "                           [--confirm forwarded|always]\n\n"
          + "Start the agent"))
  }

  /// `vault` runs through its actions only, each with its runner.
  func testEveryNamedCommandButDemoHasARunner() {
    for command in CommandCatalog.standard.commands {
      let runs =
        command.run != nil
        || (!command.actions.isEmpty && command.actions.allSatisfy { $0.run != nil })
      XCTAssertEqual(!runs, command.name == "demo", command.name)
    }
  }
}
