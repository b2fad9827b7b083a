import XCTest

@testable import Commands

/// A command declared once (`ParsableCommand`): its usage line, help, parsing and typed value
/// all come from the same declarations.
final class CommandDeclarationTests: XCTestCase {
  /// Every kind of declaration, as a command would use them.
  struct SampleCommand: AsyncParsableCommand {
    enum Colour: String, CaseIterable, Sendable {
      case red, green
    }

    static let configuration = CommandConfiguration<Self>(
      name: "sample", summary: "A sample.",
      arguments: [
        .required("NAME", \.name, .text), .optional("FIRST", \.first, .text),
        .optional("SECOND", \.second, .text), .commandAfterSeparator(\.command),
      ],
      options: [
        .value(
          "must", \.must, .text, "VALUE", help: "needed",
          required: "the thing it needs (for example --must 1)"),
        .repeated("colour", \.colours, .choice(Colour.allCases), help: "colours"),
        .value("wait", \.wait, .seconds(), "SECONDS", help: "how long", showsDefault: true),
        .flag("loud", \.loud, help: "louder"),
        .value("secret", \.secret, .text, "X", help: "not for people", hidden: true),
      ])

    var global = GlobalOptions()
    var name = ""
    var first: String?
    var second: String?
    var command: [String] = []
    var must = ""
    var colours: [Colour] = []
    var wait = 7
    var loud = false
    var secret: String?

    func run(console: Console) async -> ExitCode { .ok }
  }

  private let catalog = CommandCatalog(
    interactive: AccountManagerCommand.self, commands: [SampleCommand.self])

  private func sample(_ words: String...) throws -> SampleCommand {
    try SampleCommand(try ArgumentParser(catalog: catalog).parse(["sample"] + words))
  }

  private func refusal(_ words: String...) -> String? {
    do {
      _ = try SampleCommand(try ArgumentParser(catalog: catalog).parse(["sample"] + words))
      return nil
    } catch let error as CommandFailure {
      return error.message
    } catch {
      return "\(error)"
    }
  }

  func testTheUsageLineComesFromTheDeclarations() throws {
    let spec = try XCTUnwrap(catalog.command(named: "sample"))
    XCTAssertEqual(
      spec.usage,
      "sample NAME [FIRST [SECOND]] --must VALUE [--colour red|green]… [--wait SECONDS] [--loud] "
        + "-- COMMAND [ARGS...]")
    let help = catalog.help(for: spec)
    XCTAssertTrue(help.contains("\n  --colour red|green         colours\n"), help)
    XCTAssertTrue(help.contains("\n  --wait SECONDS             how long (default 7)\n"), help)
    XCTAssertFalse(help.contains("secret"))
  }

  func testTheTypedValueComesFromTheDeclarations() throws {
    let command = try sample(
      "n", "one", "--must", "m", "--colour", "green,red", "--colour", "green", "--loud",
      "--secret=s", "--", "env", "--wait", "x")
    XCTAssertEqual(command.name, "n")
    XCTAssertEqual(command.first, "one")
    XCTAssertNil(command.second)
    XCTAssertEqual(command.must, "m")
    XCTAssertEqual(command.colours, [.green, .red])
    XCTAssertEqual(command.wait, 7)
    XCTAssertTrue(command.loud)
    XCTAssertEqual(command.secret, "s")
    XCTAssertEqual(command.command, ["env", "--wait", "x"])
  }

  func testEachRefusalNamesTheFix() {
    XCTAssertEqual(
      refusal("n", "--", "env"),
      "'sample' needs --must VALUE, the thing it needs (for example --must 1)")
    XCTAssertEqual(
      refusal("n", "--must", "", "--", "env"),
      "'sample' needs --must VALUE, the thing it needs (for example --must 1)")
    XCTAssertEqual(
      refusal("n", "--must", "m", "--colour", "blue", "--", "env"),
      "--colour is red or green, not \"blue\"")
    XCTAssertEqual(
      refusal("n", "--must", "m", "--wait", "soon", "--", "env"),
      "--wait takes a whole number of seconds, not \"soon\" (for example --wait 7)")
    XCTAssertEqual(
      refusal("n", "--must", "m"),
      "'sample' needs `--` and the command to run after NAME (usage: authtui "
        + "sample NAME [FIRST [SECOND]] --must VALUE [--colour red|green]… [--wait SECONDS] "
        + "[--loud] -- COMMAND [ARGS...])")
    XCTAssertEqual(
      refusal("n", "a", "b", "c", "--must", "m", "--", "env"),
      "'sample' takes only NAME FIRST SECOND before `--` (usage: authtui sample NAME [FIRST "
        + "[SECOND]] --must VALUE [--colour red|green]… [--wait SECONDS] [--loud] -- COMMAND "
        + "[ARGS...])")
  }

  /// A usage line written by hand (forms that exclude each other) still names every argument
  /// and option, as a generated one does.
  func testEveryUsageLineNamesEachArgumentAndVisibleOption() {
    let all = CommandCatalog.standard.commands.flatMap { [$0] + $0.actions }
    for command in all {
      for argument in command.arguments {
        XCTAssertTrue(
          command.usage.contains(argument.shownAs ?? argument.name),
          "\(command.name): \(argument.name)")
      }
      for option in command.options where !option.hidden {
        let written = "--" + option.name + (option.valueName.map { " " + $0 } ?? "")
        XCTAssertTrue(command.usage.contains(written), "\(command.name): \(written)")
      }
    }
  }

  func testNoCommandDeclaresAnOptionTwiceOrOneOfTheGlobalOnes() {
    let global = Set(GlobalOptions.specs.map(\.name))
    for command in CommandCatalog.standard.commands.flatMap({ [$0] + $0.actions }) {
      let names = command.options.map(\.name)
      XCTAssertEqual(Set(names).count, names.count, command.name)
      XCTAssertTrue(global.isDisjoint(with: names), command.name)
    }
  }

  /// `vault` runs only through its actions, declared as `agent`'s are: it needs one, and each
  /// has its own usage and help.
  func testACommandOnlyWhoseActionsRunNeedsOne() throws {
    let parser = ArgumentParser(catalog: .standard)
    XCTAssertThrowsError(try parser.parse(["vault"])) {
      XCTAssertEqual(
        ($0 as? UsageError)?.line,
        "authtui: 'vault' needs ACTION (usage: authtui vault init|status|passwd|unlock|lock)")
    }
    XCTAssertEqual(try parser.parse(["vault", "status"]).command, "vault status")
    XCTAssertNotNil(CommandCatalog.standard.command(named: "vault passwd")?.run)
    let vault = try XCTUnwrap(CommandCatalog.standard.command(named: "vault"))
    XCTAssertTrue(
      CommandCatalog.standard.help(for: vault).hasPrefix(
        """
        Usage: authtui vault init
               authtui vault status
               authtui vault passwd
               authtui vault unlock --cache DURATION
               authtui vault lock

        Create the encrypted vault
        """))
  }

  /// `completion --words` is a request of its own: it needs no SHELL, and SHELL is not read.
  func testAnOptionThatStandsAloneNeedsNoArgument() throws {
    let parser = ArgumentParser(catalog: .standard)
    let question = try CompletionCommand(try parser.parse(["completion", "--words", "accounts"]))
    XCTAssertEqual(question.question, .accounts)
    XCTAssertEqual(
      try CompletionCommand(try parser.parse(["completion", "--words", "flows:x", "tcsh"]))
        .question, .flows(provider: "x"))
    XCTAssertThrowsError(try parser.parse(["completion"]))
  }
}
