/// `authtui help [COMMAND [ACTION]] [--man]`, `authtui --help` and `authtui COMMAND --help`.
package struct HelpCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "help", summary: "Show the command list, or the help of one command.",
    details: "`authtui help --man | man -l -` reads all of it as a manual page.",
    arguments: [.optional("COMMAND", \.command, .command), .optional("ACTION", \.action, .text)],
    options: [.flag("man", \.man, help: "print the manual page (roff) of every command")])

  var global = GlobalOptions()
  /// The command asked about; nil for the command list.
  var command: String?
  /// The action of `command` asked about (`help agent start`).
  var action: String?
  /// `--man`: the manual page instead (roff, for `man -l -` or `make install`).
  var man = false

  func run(console: Console) async -> ExitCode {
    guard !man else {
      console.out(ManPage.render(.standard, date: ManPage.date()))
      return .ok
    }
    let topic = [command, action].compactMap { $0 }.joined(separator: " ")
    return Self.run(topic: topic, catalog: .standard, console: console)
  }

  /// Prints the help of `topic` (the overview when nil or empty).
  package static func run(topic: String?, catalog: CommandCatalog, console: Console) -> ExitCode {
    guard let topic, !topic.isEmpty else {
      console.out(catalog.overview())
      return .ok
    }
    guard let command = catalog.command(named: topic) else {
      let error = UsageError(
        message: "no help for unknown command '\(topic)'",
        hint: catalog.suggestion(forCommand: topic))
      console.err(error.line)
      return .usage
    }
    console.out(catalog.help(for: command))
    return .ok
  }
}
