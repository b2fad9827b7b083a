import Spelling

/// A parsed command line: which command, its arguments, and the options given.
package struct Invocation: Sendable, Equatable {
  /// The command's name (empty for the interactive UI).
  package let command: String
  /// Positional arguments, in order.
  package let arguments: [String]
  /// Options with values, by name without dashes; a repeated option keeps its last value.
  /// Each command reads them through its declarations (`Option`), into its typed value.
  let values: [String: String]
  /// Every value of each option with values, in the order given (`--flow pkce --flow device`).
  var everyValue: [String: [String]] = [:]
  /// Flags given, by name without dashes.
  let flags: Set<String>
  /// How many positional arguments came before `--`, when it was given: `exec` takes what
  /// follows it as the command to run.
  var positionalsBeforeSeparator: Int? = nil

  /// The global options given.
  package var global: GlobalOptions { GlobalOptions(self) }

  /// True when `--help` was given.
  package var wantsHelp: Bool { flags.contains("help") }

  /// True when `--version` was given (before any command).
  package var wantsVersion: Bool { flags.contains("version") }
}

/// A command line that cannot be run; `message` names the problem, `hint` the way out.
package struct UsageError: Error, Equatable, Sendable {
  /// The problem.
  let message: String
  /// The way out; nil when `message` names it (a refusal a value's declaration words).
  let hint: String?

  /// The one line printed to standard error.
  /// Every control character in it (a typed word is echoed) is shown escaped, a line break
  /// too: one usage error is one line.
  package var line: String {
    TerminalText.cleaned("authtui: \(message)" + (hint.map { " (\($0))" } ?? ""))
  }
}
