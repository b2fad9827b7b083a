/// One command as the parser, the catalog, help, the manual page and the completion scripts
/// see it: what its declarations (`ParsableCommand.configuration`) say, whatever the types of
/// its values, with the code that runs it.
package struct CommandSpec: Sendable {
  /// The words after `authtui` (`login`, `agent start`); empty for the interactive UI.
  package let name: String
  /// The usage line without the program name (`login PROVIDER [--flow pkce|device|pin] …`).
  let usage: String
  /// One line for the command list.
  let summary: String
  /// What `help COMMAND` prints after the usage line.
  let details: String
  /// The positional arguments, in order.
  let arguments: [ArgumentSpec]
  /// Options this command accepts besides the global ones.
  let options: [OptionSpec]
  /// The actions of a command that has them (`agent start`, `agent stop`…), each a command of
  /// its own; the command without an action word runs this spec.
  let actions: [CommandSpec]
  /// What runs the command; nil for the ones the composition root runs itself on the main
  /// thread (the interactive UI and the demo).
  package let run: Runner?

  /// Runs one command and gives its exit status.
  package typealias Runner = @Sendable (Invocation, Console) async -> ExitCode

  /// How many positional arguments must come: those before `--` the command needs.
  var requiredArguments: Int {
    arguments.filter { $0.isRequired && !$0.followsSeparator }.count
  }

  /// True when only its actions run (`vault`): an action word must follow it.
  var needsAction: Bool { run == nil && !actions.isEmpty }

  /// True when its words before `--` are another program's, options included (`ssh`).
  var takesEveryWord: Bool { arguments.contains(where: \.takesEveryWord) }

  /// True when it takes every word after `--` as a command to run (`exec`).
  var takesCommandAfterSeparator: Bool { arguments.contains(where: \.followsSeparator) }
}
