/// What is read from the command line through declarations of its own: a command
/// (`ParsableCommand`) or the options every command shares (`GlobalOptions`). Each declaration
/// writes one property through its key path, into a value that starts with every property at
/// its default.
protocol ParsableArguments: Sendable {
  /// The value before anything is read: every property at its default.
  init()
}

/// A command of the command line, declared once as swift-argument-parser declares one: its word,
/// help and actions in `configuration`, with each argument and option there (name,
/// placeholder, value type, help, visibility) written through a key path into the command's own
/// properties, whose initial values are the defaults. The parser, the typed value, the usage
/// line, `--help`, the manual page and the completion scripts all read these declarations; the
/// catalog is a list of these types.
///
/// Key paths rather than property wrappers: the declarations are then plain `Sendable` static
/// values the compiler checks under Swift 6 (a wrong property type does not build), the command
/// is an ordinary struct with its memberwise initialiser, and no reflection or decoding
/// machinery (swift-argument-parser's `Mirror` walk and `Decoder`) is needed to find or fill
/// them.
protocol ParsableCommand: ParsableArguments {
  /// The command's word, help, arguments, options and actions.
  static var configuration: CommandConfiguration<Self> { get }
  /// The options every command takes.
  var global: GlobalOptions { get set }
  /// Checks what no single value can: how the options go together (swift-argument-parser's
  /// `validate()`); runs once every argument and option was read.
  mutating func validate() throws(CommandFailure)
  /// What runs the command; nil for the ones the composition root runs itself on the main
  /// thread (the interactive UI and the demo). `AsyncParsableCommand` gives it.
  static var runner: CommandSpec.Runner? { get }
}

/// A command the catalog runs: its command line is read, then it runs.
protocol AsyncParsableCommand: ParsableCommand {
  /// Runs the command and gives its exit status.
  func run(console: Console) async -> ExitCode
  /// Says why the command line was refused and gives the exit status, on this value as read
  /// up to the refusal (its flags included); by default the failure's line on standard error.
  func refuse(_ failure: CommandFailure, console: Console) async -> ExitCode
}

extension ParsableCommand {
  /// Nothing to check across options.
  mutating func validate() throws(CommandFailure) {}

  /// Run by the composition root.
  static var runner: CommandSpec.Runner? { nil }

  /// The command `invocation` (already parsed against the catalog) asks for, or the usage error
  /// that names the fix.
  init(_ invocation: Invocation) throws(CommandFailure) {
    self.init()
    try read(invocation)
  }

  /// Reads `invocation` into this value: the global options and the flags first (no value of
  /// theirs is refused, and a refusal may depend on them, as `login --json`'s does), then the
  /// arguments and the options with values in declared order, then `validate()`.
  mutating func read(_ invocation: Invocation) throws(CommandFailure) {
    global = GlobalOptions(invocation)
    try Self.configuration.read(invocation, into: &self)
    try validate()
  }

  /// The command's word (`start` for `agent start`).
  static var word: String { configuration.name }

  /// The command as the catalog, the parser, help, the manual page and completion see it; an
  /// action is named with the words of the command it belongs to (`agent start`).
  static func spec(under parent: String? = nil) -> CommandSpec {
    let configuration = Self.configuration
    let name = parent.map { "\($0) \(configuration.name)" } ?? configuration.name
    return CommandSpec(
      name: name, usage: configuration.usageLine(named: name), summary: configuration.summary,
      details: configuration.details, arguments: configuration.arguments.map(\.spec),
      options: configuration.options.map(\.spec),
      actions: configuration.actions.map { $0.spec(under: name) }, run: runner)
  }
}

extension AsyncParsableCommand {
  /// Reads the command line, then runs; a refusal is reported by `refuse`.
  static var runner: CommandSpec.Runner? {
    { invocation, console in
      var command = Self()
      do throws(CommandFailure) {
        try command.read(invocation)
      } catch {
        return await command.refuse(error, console: console)
      }
      return await command.run(console: console)
    }
  }

  /// The failure's line on standard error, and its exit status.
  func refuse(_ failure: CommandFailure, console: Console) async -> ExitCode {
    console.err(failure.line)
    return failure.exitCode
  }
}
