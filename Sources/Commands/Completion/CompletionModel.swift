/// What a shell may complete after `authtui`, read from the command table: the scripts of
/// `authtui completion bash|zsh|fish` are generated from this, so they offer exactly the
/// commands, actions and options `--help` lists.
struct CompletionModel: Sendable, Equatable {
  /// What a word can be.
  enum Words: Sendable, Equatable {
    /// Account names, asked of authtui when completing (`completion --words accounts`).
    case accounts
    /// Provider ids, the same way (`completion --words providers`).
    case providers
    /// The flows the provider named by the command's first argument offers
    /// (`completion --words flows:PROVIDER`), these choices before it is typed.
    case providerFlows([String])
    /// Command names.
    case commands
    /// One of these words.
    case choices([String])
    /// A file name.
    case files
    /// A folder name.
    case folders
    /// Nothing to offer (a number, a free name).
    case none
  }

  /// One option: `--name`, and what its value is (nil for a flag).
  struct Option: Sendable, Equatable {
    let name: String
    let value: Words?
  }

  /// One command word (an action is `agent start`: two words).
  struct Command: Sendable, Equatable {
    let words: [String]
    let options: [Option]
    /// What each positional argument is, in order.
    let arguments: [Words]
  }

  let commands: [Command]
  let globalOptions: [Option]

  /// The model of `catalog`.
  init(_ catalog: CommandCatalog) {
    var commands: [Command] = []
    for spec in catalog.commands {
      commands.append(Self.command(spec, words: [spec.name]))
      for action in spec.actions {
        commands.append(
          Self.command(action, words: action.name.split(separator: " ").map(String.init)))
      }
    }
    self.commands = commands
    globalOptions = Self.options(GlobalOptions.all) + [Option(name: "help", value: nil)]
  }

  /// The top-level words: every command.
  var commandNames: [String] { commands.filter { $0.words.count == 1 }.map { $0.words[0] } }

  /// The action words of `command` (`start stop status` for `agent`).
  func actions(of command: String) -> [String] {
    commands.filter { $0.words.count == 2 && $0.words[0] == command }.map { $0.words[1] }
  }

  private static func command(_ spec: CommandSpec, words: [String]) -> Command {
    var options = options(spec.options)
    if spec.arguments.first == "PROVIDER" {
      // `login PROVIDER --flow`: the flows that provider offers.
      options = options.map { option in
        guard option.name == "flow", case .choices(let all)? = option.value else { return option }
        return Option(name: option.name, value: .providerFlows(all))
      }
    }
    return Command(
      words: words, options: options,
      arguments: spec.arguments.map { argument(named: $0, usage: spec.usage) })
  }

  private static func options(_ specs: [OptionSpec]) -> [Option] {
    specs.filter { !$0.hidden }.map { Option(name: $0.name, value: $0.valueName.map(value)) }
  }

  /// What the value called `placeholder` is: a list written `a|b|c`, a path, or free text.
  private static func value(_ placeholder: String) -> Words {
    if placeholder.contains("|") {
      return .choices(placeholder.split(separator: "|").map(String.init))
    }
    switch placeholder {
    case "PATH", "FILE": return .files
    case "DIR": return .folders
    default: return .none
    }
  }

  /// What the argument `name` of a command used as `usage` is.
  private static func argument(named name: String, usage: String) -> Words {
    switch name {
    case "ACCOUNT": return .accounts
    case "PROVIDER": return .providers
    case "COMMAND": return .commands
    case "SHELL": return .choices(CompletionCommand.shells)
    default:
      // `vault init|status|passwd`: the usage spells the choices.
      let words = usage.split(separator: " ")
      if words.count > 1, words[1].contains("|") {
        return .choices(words[1].split(separator: "|").map(String.init))
      }
      return .none
    }
  }
}
