/// One positional argument of a command as the parser, help and the completion scripts see it:
/// what an `Argument` declaration says of itself.
struct ArgumentSpec: Sendable {
  /// Its name in usage lines and messages (`ACCOUNT`).
  let name: String
  /// How a usage line writes it when not by its name: its choices (`bash|zsh|fish`).
  let shownAs: String?
  /// True when the command cannot run without it.
  let isRequired: Bool
  /// True for the command to run that follows `--` (`exec ACCOUNT -- COMMAND [ARGS...]`), which
  /// takes every word after it, options included.
  let followsSeparator: Bool
  /// What a shell may complete for it.
  let completion: CompletionModel.Words
  /// True for an argument that takes every word before `--`, options included, as another
  /// program's (`ssh [SSH OPTION]... DESTINATION`): authtui reads no option after the command
  /// word but `--help` right after it.
  var takesEveryWord = false
}
