import Spelling

/// Every command authtui has, and the help text generated from them.
package struct CommandCatalog: Sendable {
  /// The interactive UI, run when no command is given.
  package let interactive: CommandSpec
  /// The named commands, in the order `--help` lists them.
  package let commands: [CommandSpec]

  /// The catalog of `commands`, in the order `--help` lists them, with `interactive` run when
  /// no command is given: one way to register a command, its type.
  init(interactive: any ParsableCommand.Type, commands: [any ParsableCommand.Type]) {
    self.interactive = interactive.spec()
    self.commands = commands.map { $0.spec() }
  }

  /// The command called `name`, if there is one: a command's word (`agent`), or the words of
  /// one of its actions (`agent start`).
  package func command(named name: String) -> CommandSpec? {
    let words = name.split(separator: " ", maxSplits: 1).map(String.init)
    guard let command = commands.first(where: { $0.name == words.first ?? name }) else {
      return nil
    }
    guard words.count == 2 else { return command }
    return command.actions.first { $0.name == name }
  }

  /// "did you mean …" for a mistyped command, or a pointer to the list.
  func suggestion(forCommand name: String) -> String {
    if let best = SpellingSuggestion.closest(to: name, among: commands.map(\.name)) {
      return "did you mean `authtui \(best)`? `authtui --help` lists every command"
    }
    return "`authtui --help` lists every command"
  }

  /// "did you mean …" for a mistyped action of `command`.
  func suggestion(forAction word: String, of command: CommandSpec) -> String {
    let words = command.actions.map { String($0.name.dropFirst(command.name.count + 1)) }
    let list = "`authtui help \(command.name)` lists its actions"
    if let best = SpellingSuggestion.closest(to: word, among: words) {
      return "did you mean `authtui \(command.name) \(best)`? \(list)"
    }
    return list
  }

  /// "did you mean …" for a mistyped option `name` (without dashes) where `known` are the
  /// options accepted (`command`'s and the global ones, or only the global ones before the
  /// command word); else a pointer to the help, or, for a command's option written before the
  /// command word, where it goes.
  func suggestion(forOption name: String, among known: [OptionSpec], of command: CommandSpec?)
    -> String
  {
    if command == nil && commands.contains(where: { $0.options.contains { $0.name == name } }) {
      return "put command options after the command, e.g. `authtui list --json`"
    }
    if let command,
      let action = command.actions.first(where: { $0.options.contains { $0.name == name } })
    {
      // `agent --json status`: the option is an action's.
      return "put it after the action, e.g. `authtui \(action.name) --\(name)`"
    }
    // `--help` is accepted everywhere and `--version` before a command, as the parser does.
    let names =
      known.filter { !$0.hidden }.map(\.name) + ["help"] + (command == nil ? ["version"] : [])
    if let best = SpellingSuggestion.closest(to: name, among: names) {
      return "did you mean --\(best)?"
    }
    if let command, command.takesCommandAfterSeparator {
      // `exec ACCOUNT curl -H …`: the option is the command's, which goes after `--`.
      return "the command to run and its options go after `--`: authtui \(command.usage)"
    }
    return "see `authtui help\(command.map { " " + $0.name } ?? "")`"
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
      let left = "  " + padded(command.name, to: width + 2)
      let summary = Self.wrapped(
        command.summary.split(separator: " ").map(String.init), Self.width - left.count)
      lines.append(left + summary[0])
      lines += summary.dropFirst().map { String(repeating: " ", count: left.count) + $0 }
    }
    lines += ["", "Options for every command:"]
    lines += Self.optionLines(GlobalOptions.specs)
    lines += [
      "  --help                     show help (also `authtui help COMMAND`)",
      "  --version                  print the version",
      "",
      "Exit codes: 0 ok, 1 error, 2 usage, 3 vault locked or wrong passphrase, 4 no such",
      "account or provider, 5 sign-in needed, 6 cancelled, denied or timed out, 7 provider or",
      "network error.",
    ]
    return lines.joined(separator: "\n")
  }

  /// The text of `authtui help COMMAND` (and `help COMMAND ACTION`): a command with actions
  /// lists each with its usage, summary and options.
  func help(for command: CommandSpec) -> String {
    // A command only whose actions run is used through them.
    let usages = (command.needsAction ? [] : [command.usage]) + command.actions.map(\.usage)
    var lines = Self.usageLines("Usage: authtui ", usages[0])
    for usage in usages.dropFirst() { lines += Self.usageLines("       authtui ", usage) }
    lines += ["", command.summary]
    if !command.details.isEmpty {
      lines += ["", command.details]
    }
    if command.options.contains(where: { !$0.hidden }) {
      lines += ["", "Options:"]
      lines += Self.optionLines(command.options)
    }
    for action in command.actions {
      lines += [""] + Self.usageLines("authtui ", action.usage) + ["  " + action.summary]
      lines += Self.optionLines(action.options)
    }
    if let first = command.actions.first {
      lines += [
        "",
        "`authtui help \(first.name)` (and the other actions) gives the details of each.",
      ]
    }
    return lines.joined(separator: "\n")
  }

  /// The width help is written to: every line fits a terminal of this many columns (the
  /// details are written to it; usage and option lines are wrapped here).
  static let width = 90

  /// An option per line, its help beside it, wrapped under itself where it is too long.
  private static func optionLines(_ options: [OptionSpec]) -> [String] {
    options.filter { !$0.hidden }.flatMap { option in
      let name = "--\(option.name)" + (option.valueName.map { " \($0)" } ?? "")
      let left = "  " + padded(name, to: 25) + "  "
      let indent = String(repeating: " ", count: left.count)
      let help = wrapped(option.help.split(separator: " ").map(String.init), width - left.count)
      return help.enumerated().map { ($0.offset == 0 ? left : indent) + $0.element }
    }
  }

  /// `usage` after `lead`, wrapped between its words (an optional group in brackets is one
  /// word) when it is too long: the command's own words stay on the first line, the rest go
  /// under its first argument.
  private static func usageLines(_ lead: String, _ usage: String) -> [String] {
    guard lead.count + usage.count > width else { return [lead + usage] }
    var words: [String] = []
    var depth = 0
    for word in usage.split(separator: " ").map(String.init) {
      if depth > 0, let last = words.popLast() {
        words.append(last + " " + word)
      } else {
        words.append(word)
      }
      depth += word.filter { $0 == "[" }.count - word.filter { $0 == "]" }.count
    }
    let name = words.prefix { $0.first?.isLowercase == true }
    let head = lead + name.joined(separator: " ") + " "
    let indent = String(repeating: " ", count: head.count)
    return wrapped(Array(words.dropFirst(name.count)), width - head.count).enumerated().map {
      ($0.offset == 0 ? head : indent) + $0.element
    }
  }

  /// `words` joined with spaces into lines of at most `width` characters (a longer word on a
  /// line of its own).
  private static func wrapped(_ words: [String], _ width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in words {
      if line.isEmpty {
        line = word
      } else if line.count + 1 + word.count <= width {
        line += " " + word
      } else {
        lines.append(line)
        line = word
      }
    }
    return lines + [line]
  }
}

/// `text` followed by spaces up to `width` characters (at least one space).
private func padded(_ text: String, to width: Int) -> String {
  text + String(repeating: " ", count: max(1, width - text.count))
}
