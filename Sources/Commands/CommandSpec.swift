/// One command of the command line: its name, what it takes, and its help text.
///
/// The catalog of these (`CommandCatalog`) is the single source for parsing, `--help`,
/// `help COMMAND` and the hints printed after a usage error.
package struct CommandSpec: Sendable {
  /// The word after `authtui` (`login`); empty for the interactive UI.
  package let name: String
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
  /// The actions of a command that has them (`agent start`, `agent stop`…), each a command of
  /// its own named by its word after this command's (`start`); the command without an action
  /// word runs this spec.
  var actions: [CommandSpec] = []
  /// What runs the command; nil for the ones the composition root runs itself on the main
  /// thread (the interactive UI and the demo).
  package var run: Runner? = nil

  /// Runs one command and gives its exit status.
  package typealias Runner = @Sendable (Invocation, Console) async -> ExitCode

  /// This spec with `run` as its runner, so the catalog pairs each command with its code.
  func running(_ run: @escaping Runner) -> CommandSpec {
    var spec = self
    spec.run = run
    return spec
  }

  /// This spec with a runner that reads the command's typed options with `parse` first; a
  /// usage error found there is printed and is the command's exit status.
  func running<Options: Sendable>(
    _ parse: @escaping @Sendable (Invocation) throws(CommandFailure) -> Options,
    _ run: @escaping @Sendable (Options, Console) async -> ExitCode
  ) -> CommandSpec {
    running { invocation, console in
      let options: Options
      do throws(CommandFailure) {
        options = try parse(invocation)
      } catch {
        console.err(error.line)
        return error.exitCode
      }
      return await run(options, console)
    }
  }
}

/// The options of a command that lists things: the global ones and `--json`.
struct ListingOptions: Sendable, Equatable {
  var global: GlobalOptions
  /// `--json`: a JSON array instead of a table.
  var json: Bool

  /// The options of `invocation`, whose `--json` is `jsonFlag`.
  init(_ invocation: Invocation, json jsonFlag: OptionSpec) {
    global = invocation.global
    json = invocation.flag(jsonFlag)
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
  /// True for an option between authtui processes (`agent --handover-fd`), left out of help.
  var hidden = false

  /// A flag, which takes no value.
  static func flag(_ name: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, valueName: nil, help: help)
  }

  /// An option followed by a value.
  static func value(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, valueName: valueName, help: help)
  }
}

/// Options every command accepts, before or after the command name, as one parsed value.
package struct GlobalOptions: Sendable, Equatable {
  /// `--vault PATH`.
  static let vaultOption = OptionSpec.value(
    "vault", "PATH",
    "the vault file (default: $AUTHTUI_VAULT, else $XDG_DATA_HOME/authtui/vault.db)")
  /// `--config DIR`.
  static let configOption = OptionSpec.value(
    "config", "DIR",
    "the configuration folder (default: $AUTHTUI_CONFIG_DIR, else $XDG_CONFIG_HOME/authtui)")
  /// `--theme NAME`.
  static let themeOption = OptionSpec.value(
    "theme", "NAME", "the colour theme (default, light, high-contrast, monochrome, or your own)")
  /// `--no-color`.
  static let noColorOption = OptionSpec.flag(
    "no-color", "draw without colour (also when NO_COLOR is set)")
  /// All of them, in the order help lists them.
  static let all: [OptionSpec] = [vaultOption, configOption, themeOption, noColorOption]

  /// The vault file given with `--vault`.
  package var vault: String?
  /// The configuration folder given with `--config`.
  package var config: String?
  /// The theme given with `--theme`.
  package var theme: String?
  /// `--no-color`.
  package var noColor: Bool

  /// The global options of `invocation`.
  package init(_ invocation: Invocation) {
    vault = invocation.value(Self.vaultOption)
    config = invocation.value(Self.configOption)
    theme = invocation.value(Self.themeOption)
    noColor = invocation.flag(Self.noColorOption)
  }
}
