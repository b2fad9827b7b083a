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
}
