/// One `--option` of a command as the parser, help, the manual page and the completion scripts
/// see it, whatever its value's type: what an `Option` declaration says of itself.
struct OptionSpec: Sendable {
  /// The option name without dashes (`flow`).
  let name: String
  /// The placeholder for its value (`SECONDS`), or nil for a flag.
  let valueName: String?
  /// One line of help.
  let help: String
  /// True for an option between authtui processes or for the completion scripts
  /// (`agent --handover-fd`, `completion --words`), left out of help, usage and completion.
  var hidden = false
  /// True when it may be given more than once, each value counting (`--flow pkce --flow device`).
  var repeats = false
  /// True when the command cannot run without it (`providers add --issuer`).
  var isRequired = false
  /// True when, given, it is the whole request and the command's arguments are neither required
  /// nor read (`completion --words accounts`, the scripts' question, needs no SHELL).
  var standsAlone = false
  /// What a shell may complete for its value.
  var completion: CompletionModel.Words = .none
  /// How many words its value is (`--for METHOD URL`: 2); the parser hands them on joined by
  /// one space.
  var valueCount = 1

  /// `[--flow pkce|device]…`, `--issuer URL` or `[--json]`: the option in a usage line.
  var usage: String {
    let body = "--" + name + (valueName.map { " " + $0 } ?? "")
    let shown = isRequired ? body : "[" + body + "]"
    return repeats ? shown + "…" : shown
  }
}
