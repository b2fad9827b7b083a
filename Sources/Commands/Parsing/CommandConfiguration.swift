/// A command, declared once: its word, help, arguments, options and actions
/// (swift-argument-parser's `CommandConfiguration` together with the command's `@Argument`,
/// `@Option` and `@Flag` properties).
struct CommandConfiguration<Root: ParsableCommand>: Sendable {
  /// The word after `authtui` (`login`), or after the command for an action (`start` in
  /// `agent start`); empty for the interactive UI.
  let name: String
  /// One line for the command list.
  let summary: String
  /// What `help COMMAND` prints after the usage line.
  var details = ""
  /// The positional arguments, in order: the required ones, then the optional ones, then the
  /// command to run after `--`.
  var arguments: [Argument<Root>] = []
  /// The options it takes besides the global ones, in the order help lists them.
  var options: [Option<Root>] = []
  /// Its actions (`agent start`, `agent stop`…), each a command of its own; the command without
  /// an action word runs this one.
  var actions: [any ParsableCommand.Type] = []
  /// The usage line where the declarations cannot say it: forms that exclude each other
  /// (`default ACCOUNT | --clear PROVIDER`). `CommandDeclarationTests` checks that it names
  /// every argument and option.
  var usage: String?

  /// The usage line of the command called `fullName` (`agent start`), without `authtui`:
  /// the required arguments, the optional ones nested (`[COMMAND [ACTION]]`), the options
  /// (`[--json]`, `--issuer URL`, `[--flow pkce|device]…`), then `-- COMMAND [ARGS...]`; for a
  /// command only whose actions run, its action words (`vault init|status|passwd`).
  func usageLine(named fullName: String) -> String {
    if let usage { return usage }
    if Root.runner == nil && !actions.isEmpty {
      // Only its actions run (`vault init|status|passwd`).
      return fullName + " " + actions.map { $0.word }.joined(separator: "|")
    }
    let positional = arguments.map(\.spec).filter { !$0.followsSeparator }
    var words = fullName.isEmpty ? [] : [fullName]
    words += positional.filter(\.isRequired).map { $0.shownAs ?? $0.name }
    let optional = positional.filter { !$0.isRequired }.reversed().reduce("") { inner, argument in
      "[" + (argument.shownAs ?? argument.name) + (inner.isEmpty ? "" : " " + inner) + "]"
    }
    if !optional.isEmpty { words.append(optional) }
    // The interactive UI takes only the options every command takes.
    let shown = fullName.isEmpty ? GlobalOptions.specs : options.map(\.spec)
    words += shown.filter { !$0.hidden }.map(\.usage)
    words += arguments.map(\.spec).filter(\.followsSeparator).map { $0.shownAs ?? $0.name }
    return words.joined(separator: " ")
  }

  /// Reads `invocation` into `command`: flags, arguments, then options with values.
  func read(_ invocation: Invocation, into command: inout Root) throws(CommandFailure) {
    let context = CommandContext(
      name: invocation.command, usage: usageLine(named: invocation.command))
    for option in options where option.spec.valueName == nil {
      try option.read(&command, invocation, context)
    }
    let standsAlone = options.contains {
      $0.spec.standsAlone && invocation.values[$0.spec.name] != nil
    }
    if !standsAlone {
      try readArguments(invocation, into: &command, context)
    }
    for option in options where option.spec.valueName != nil {
      try option.read(&command, invocation, context)
    }
  }

  /// Gives each argument its word; the command to run after `--` takes every word after it,
  /// and the other arguments must all stand before it.
  private func readArguments(
    _ invocation: Invocation, into command: inout Root, _ context: CommandContext
  ) throws(CommandFailure) {
    let words = invocation.arguments
    let positional = arguments.filter { !$0.spec.followsSeparator }
    let separated = arguments.first(where: \.spec.followsSeparator)
    if let separated, !separated.spec.isRequired {
      // An optional command after `--` (`ssh`): anything may stand before it, and `--` with
      // nothing after it is no command.
    } else if separated != nil {
      let required = positional.filter(\.spec.isRequired).map(\.spec.name)
      let all = positional.map(\.spec.name).joined(separator: " ")
      let problem: String?
      switch invocation.positionalsBeforeSeparator {
      case nil:
        problem =
          "'\(context.name)' needs `--` and the command to run after "
          + required.joined(separator: " ")
      case let before? where before < required.count:
        problem = "'\(context.name)' needs \(required.joined(separator: " ")) before `--`"
      case let before? where before > positional.count:
        problem = "'\(context.name)' takes only \(all) before `--`"
      case let before?:
        problem =
          words.count == before ? "'\(context.name)' needs the command to run after `--`" : nil
      }
      if let problem {
        throw CommandFailure(
          exitCode: .usage, message: "\(problem) (usage: authtui \(context.usage))")
      }
    }
    // Before `--`, when the command to run follows it; all of them otherwise.
    // An optional command after `--` left out: every word is before it.
    let separator =
      separated == nil
      ? words.count
      : invocation.positionalsBeforeSeparator
        ?? (separated?.spec.isRequired == false ? words.count : 0)
    for (index, argument) in positional.enumerated() where index < separator {
      try argument.read(&command, words[index..<separator], context)
    }
    try separated?.read(&command, words[separator...], context)
  }
}
