/// `authtui help [COMMAND]`, `authtui --help` and `authtui COMMAND --help`.
package enum HelpCommand {
  /// `help --man`: the manual page instead (roff, for `man -l -` or `make install`).
  static let manOption = OptionSpec.flag("man", "print the manual page (roff) of every command")

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
