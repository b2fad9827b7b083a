/// Options every command accepts, before or after the command name, declared once as one
/// parsed value (swift-argument-parser's `@OptionGroup`): each command has them as `global`.
package struct GlobalOptions: ParsableArguments, Equatable {
  /// The declarations, in the order help lists them.
  static let options: [Option<GlobalOptions>] = [
    .value(
      "vault", \.vault, .file, "PATH",
      help: "the vault file (default: $AUTHTUI_VAULT, else $XDG_DATA_HOME/authtui/vault.db)"),
    .value(
      "config", \.config, .folder, "DIR",
      help:
        "the configuration folder (default: $AUTHTUI_CONFIG_DIR, else $XDG_CONFIG_HOME/authtui)"
    ),
    .value(
      "theme", \.theme, .text, "NAME",
      help: "the colour theme (default, light, high-contrast, monochrome, or your own)"),
    .flag("no-color", \.noColor, help: "draw without colour (also when NO_COLOR is set)"),
  ]

  /// What the parser, help, the manual page and completion see of them.
  static let specs = options.map(\.spec)

  /// The vault file given with `--vault`.
  package var vault: String?
  /// The configuration folder given with `--config`.
  package var config: String?
  /// The theme given with `--theme`.
  package var theme: String?
  /// `--no-color`.
  package var noColor = false

  /// None given.
  package init() {}

  /// The global options of `invocation`.
  package init(_ invocation: Invocation) {
    self.init()
    let context = CommandContext(name: invocation.command, usage: "")
    for option in Self.options {
      // A value its declaration refuses (an empty path) was refused by the parser (`check`).
      try? option.read(&self, invocation, context)
    }
  }

  /// Refuses a value of `invocation`'s global options that its declaration refuses (`--vault
  /// ""`): the parser asks, for every command and the interactive UI alike, so that no command
  /// runs with the default in its place.
  static func check(_ invocation: Invocation) throws(CommandFailure) {
    var options = GlobalOptions()
    let context = CommandContext(name: invocation.command, usage: "")
    for option in Self.options {
      try option.read(&options, invocation, context)
    }
  }
}
