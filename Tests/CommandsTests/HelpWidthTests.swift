import Testing

@testable import Commands

/// Help is printed as written: a line longer than the terminal wraps in the middle of a word
/// and breaks the columns. Every line of `authtui --help` and of every command's and action's
/// help fits `CommandCatalog.width` columns.
@Suite struct HelpWidthTests {
  @Test func everyLineOfEveryHelpFitsTheWidth() {
    let catalog = CommandCatalog.standard
    var texts = [("authtui --help", catalog.overview())]
    for command in catalog.commands {
      texts.append(("authtui help \(command.name)", catalog.help(for: command)))
      for action in command.actions {
        texts.append(("authtui help \(command.name) \(action.name)", catalog.help(for: action)))
      }
    }
    for (name, text) in texts {
      for line in text.split(separator: "\n") where line.count > CommandCatalog.width {
        Issue.record("\(name): a line of \(line.count) columns: \(line)")
      }
    }
  }

  /// A long usage line wraps between its words, an optional group kept whole, under the
  /// command's first argument; an option's help wraps under itself.
  @Test func usageAndOptionLinesWrapUnderThemselves() throws {
    let catalog = CommandCatalog.standard
    let agent = try #require(catalog.command(named: "agent"))
    let help = catalog.help(for: agent)
    #expect(
      help.hasPrefix(
        "Usage: authtui agent [--idle-timeout DURATION] [--lifetime DURATION]\n"
          + "                     [--confirm forwarded|always]\n"), "\(help)")
  }
}
