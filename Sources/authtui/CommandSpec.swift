/// One command of the command line: its name, what it takes, and its help text.
///
/// The catalog of these (`CommandCatalog`) is the single source for parsing, `--help`,
/// `help COMMAND` and the hints printed after a usage error.
struct CommandSpec: Sendable {
  /// The word after `authtui` (`login`); empty for the interactive UI.
  let name: String
  /// The usage line without the program name (`login PROVIDER [--flow pkce|device|pin] …`).
  let usage: String
  /// One line for the command list.
  let summary: String
  /// What `help COMMAND` prints after the usage line.
  let details: String
  /// The positional arguments, in order (`PROVIDER`); a trailing `...` takes any number.
  let arguments: [String]
  /// How many positional arguments are required.
  let requiredArguments: Int
  /// Options this command accepts besides the global ones.
  let options: [OptionSpec]
  /// What runs the command; nil for the ones the composition root runs itself on the main
  /// thread (the interactive UI and the demo).
  var run: Runner? = nil

  /// Runs one command and gives its exit status.
  typealias Runner = @Sendable (Invocation, Console) async -> ExitCode

  /// This spec with `run` as its runner, so the catalog pairs each command with its code.
  func running(_ run: @escaping Runner) -> CommandSpec {
    var spec = self
    spec.run = run
    return spec
  }
}

/// One `--option` of a command.
struct OptionSpec: Sendable {
  /// The option name without dashes (`flow`).
  let name: String
  /// The placeholder for its value (`SECONDS`), or nil for a flag.
  let valueName: String?
  /// One line of help.
  let help: String

  /// A flag, which takes no value.
  static func flag(_ name: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, valueName: nil, help: help)
  }

  /// An option followed by a value.
  static func value(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, valueName: valueName, help: help)
  }
}

/// Options every command accepts, before or after the command name.
enum GlobalOptions {
  static let all: [OptionSpec] = [
    .value(
      "vault", "PATH",
      "the vault file (default: $AUTHTUI_VAULT, else $XDG_DATA_HOME/authtui/vault.db)"),
    .value(
      "config", "DIR",
      "the configuration folder (default: $AUTHTUI_CONFIG_DIR, else $XDG_CONFIG_HOME/authtui)"),
    .value(
      "theme", "NAME", "the colour theme (default, light, high-contrast, monochrome, or your own)"),
    .flag("no-color", "draw without colour (also when NO_COLOR is set)"),
  ]
}
