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
    /// A program to run, from `PATH`, then its own arguments, as files (`exec ACCOUNT --`).
    case programs
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
    /// What each positional argument is, in order (those before `--`).
    let arguments: [Words]
    /// What the words after `--` are, for a command that takes them.
    let afterSeparator: Words?
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
    globalOptions = Self.options(GlobalOptions.specs) + [Option(name: "help", value: nil)]
  }

  /// The top-level words: every command.
  var commandNames: [String] { commands.filter { $0.words.count == 1 }.map { $0.words[0] } }

  /// The action words of `command` (`start stop status` for `agent`).
  func actions(of command: String) -> [String] {
    commands.filter { $0.words.count == 2 && $0.words[0] == command }.map { $0.words[1] }
  }

  private static func command(_ spec: CommandSpec, words: [String]) -> Command {
    Command(
      words: words, options: options(spec.options),
      arguments: spec.arguments.filter { !$0.followsSeparator }.map(\.completion),
      afterSeparator: spec.arguments.first(where: \.followsSeparator)?.completion)
  }

  private static func options(_ specs: [OptionSpec]) -> [Option] {
    specs.filter { !$0.hidden }.map {
      Option(name: $0.name, value: $0.valueName == nil ? nil : $0.completion)
    }
  }
}
