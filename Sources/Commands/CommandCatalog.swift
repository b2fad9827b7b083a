import Spelling

/// Every command authtui has, and the help text generated from them.
package struct CommandCatalog: Sendable {
  /// The interactive UI, run when no command is given.
  package let interactive: CommandSpec
  /// The named commands, in the order `--help` lists them.
  package let commands: [CommandSpec]

  /// The command called `name`, if there is one.
  package func command(named name: String) -> CommandSpec? {
    commands.first { $0.name == name }
  }

  /// "did you mean …" for a mistyped command, or a pointer to the list.
  func suggestion(forCommand name: String) -> String {
    if let best = SpellingSuggestion.closest(to: name, among: commands.map(\.name)) {
      return "did you mean `authtui \(best)`? `authtui --help` lists every command"
    }
    return "`authtui --help` lists every command"
  }

  /// The text of `authtui --help`.
  func overview() -> String {
    let width = commands.map(\.name.count).max() ?? 0
    var lines = [
      "authtui \(BuildInfo.version): OAuth accounts in the terminal",
      "",
      "Usage:",
      "  authtui [OPTIONS]              open the interactive account manager",
      "  authtui COMMAND [ARGUMENTS]    run one command (for scripts)",
      "",
      "Commands:",
    ]
    for command in commands {
      lines.append("  " + padded(command.name, to: width + 2) + command.summary)
    }
    lines += ["", "Options for every command:"]
    lines += Self.optionLines(GlobalOptions.all)
    lines += [
      "  --help                     show help (also `authtui help COMMAND`)",
      "  --version                  print the version",
      "",
      "Exit codes: 0 ok, 1 error, 2 usage, 3 vault locked or wrong passphrase, 4 no such account",
      "or provider, 5 sign-in needed, 6 cancelled, denied or timed out, 7 provider or network error.",
    ]
    return lines.joined(separator: "\n")
  }

  /// The text of `authtui help COMMAND`.
  func help(for command: CommandSpec) -> String {
    var lines = ["Usage: authtui \(command.usage)", "", command.summary]
    if !command.details.isEmpty {
      lines += ["", command.details]
    }
    if !command.options.isEmpty {
      lines += ["", "Options:"]
      lines += Self.optionLines(command.options)
    }
    return lines.joined(separator: "\n")
  }

  private static func optionLines(_ options: [OptionSpec]) -> [String] {
    options.map { option in
      let left = "--\(option.name)" + (option.valueName.map { " \($0)" } ?? "")
      return "  " + padded(left, to: 25) + "  " + option.help
    }
  }
}

/// `text` followed by spaces up to `width` characters (at least one space).
private func padded(_ text: String, to width: Int) -> String {
  text + String(repeating: " ", count: max(1, width - text.count))
}
