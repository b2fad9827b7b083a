/// Turns `argv` into an `Invocation` against the catalog, or a `UsageError`.
package struct ArgumentParser: Sendable {
  /// The commands it knows.
  let catalog: CommandCatalog

  /// A parser for `catalog`'s commands.
  package init(catalog: CommandCatalog) { self.catalog = catalog }

  /// The invocation `arguments` (argv without the program) mean.
  package func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
    var command: CommandSpec?
    var positionals: [String] = []
    var values: [String: String] = [:]
    var everyValue: [String: [String]] = [:]
    var flags: Set<String> = []
    var index = 0
    var onlyPositionalsFromHere = false
    var positionalsBeforeSeparator: Int?

    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      // A command whose words are another program's (`ssh`): after the command word every
      // word is an argument, options included, but `--help` right after it, and `--`.
      if let current = command, current.takesEveryWord, !onlyPositionalsFromHere,
        argument != "--", !(positionals.isEmpty && (argument == "--help" || argument == "-h"))
      {
        positionals.append(argument)
        continue
      }
      if onlyPositionalsFromHere || !argument.hasPrefix("-") || argument == "-" {
        if command == nil && positionals.isEmpty {
          // The first word names the command.
          guard let spec = catalog.command(named: argument) else {
            throw UsageError(
              message: "unknown command '\(argument)'",
              hint: catalog.suggestion(forCommand: argument))
          }
          command = spec
        } else if let current = command, positionals.isEmpty, !current.actions.isEmpty {
          // The word after a command with actions names one (`agent start`).
          guard
            let action = current.actions.first(where: { $0.name == "\(current.name) \(argument)" })
          else {
            throw UsageError(
              message: "unknown action '\(argument)' for '\(current.name)'",
              hint: catalog.suggestion(forAction: argument, of: current))
          }
          command = action
        } else {
          positionals.append(argument)
        }
        continue
      }
      if argument == "--" {
        onlyPositionalsFromHere = true
        positionalsBeforeSeparator = positionals.count
        continue
      }
      let (name, inlineValue) = Self.split(option: argument)
      if name == "help" || name == "h" {
        flags.insert("help")
        continue
      }
      if name == "version" && command == nil {
        flags.insert("version")
        continue
      }
      // Before the command word only the global options are known.
      let spec = command ?? catalog.interactive
      let known = spec.options + GlobalOptions.specs
      guard let option = known.first(where: { $0.name == name }) else {
        let scope = command.map { " for '\($0.name)'" } ?? ""
        throw UsageError(
          message: "unknown option '\(argument)'\(scope)",
          hint: catalog.suggestion(forOption: name, among: known, of: command))
      }
      if option.valueName == nil {
        if inlineValue != nil {
          throw UsageError(message: "--\(name) takes no value", hint: "write just --\(name)")
        }
        flags.insert(name)
      } else if option.valueCount > 1 {
        // `--for GET URL` (or `--for=GET URL`): the words after it, as many as it takes.
        var words = inlineValue.map { [$0] } ?? []
        while words.count < option.valueCount, index < arguments.count {
          try Self.refuseOption(arguments[index], asValueOf: option, among: known)
          words.append(arguments[index])
          index += 1
        }
        guard words.count == option.valueCount else {
          throw UsageError(
            message: "--\(name) needs \(option.valueName ?? "\(option.valueCount) values")",
            hint: "write --\(name) \(option.valueName ?? "VALUE")")
        }
        let value = words.joined(separator: " ")
        values[name] = value
        everyValue[name, default: []].append(value)
      } else if let inlineValue {
        values[name] = inlineValue
        everyValue[name, default: []].append(inlineValue)
      } else if index < arguments.count {
        try Self.refuseOption(arguments[index], asValueOf: option, among: known)
        values[name] = arguments[index]
        everyValue[name, default: []].append(arguments[index])
        index += 1
      } else {
        throw UsageError(
          message: "--\(name) needs a value",
          hint: "write --\(name) \(option.valueName ?? "VALUE")")
      }
    }

    let spec = command ?? catalog.interactive
    let invocation = Invocation(
      command: spec.name, arguments: positionals, values: values, everyValue: everyValue,
      flags: flags, positionalsBeforeSeparator: positionalsBeforeSeparator)
    if flags.contains("help") || flags.contains("version") { return invocation }
    if spec.needsAction {
      throw UsageError(message: "'\(spec.name)' needs ACTION", hint: "usage: authtui \(spec.usage)")
    }
    // `completion --words accounts` is a request of its own, which needs no SHELL.
    let standsAlone = spec.options.contains { $0.standsAlone && values[$0.name] != nil }
    if positionals.count < spec.requiredArguments && !standsAlone {
      throw UsageError(
        message: "'\(spec.name)' needs \(spec.arguments[positionals.count].name)",
        hint: "usage: authtui \(spec.usage)")
    }
    if !spec.takesCommandAfterSeparator && positionals.count > spec.arguments.count {
      throw UsageError(
        message: "unexpected argument '\(positionals[spec.arguments.count])'",
        hint: "usage: authtui \(spec.usage)")
    }
    // A global option's value its declaration refuses (an empty `--vault`), for every command
    // and the interactive UI: none reads them with refusals of its own.
    do throws(CommandFailure) {
      try GlobalOptions.check(invocation)
    } catch {
      throw UsageError(message: error.message, hint: nil)
    }
    return invocation
  }

  /// Refuses `word`, the word after `option`, as its value when it is one the parser reads as
  /// an option (`--clipboard`, `-h`, `--json=x`) or `--`: `--env-file --clipboard` forgot the
  /// path, and writing the token to a file named `--clipboard` would hide that. A word that
  /// is no option here stays a value (`-`, `-5`, `--unknown`, which the value's reading may
  /// still refuse), and `--env-file=--clipboard` is always one.
  private static func refuseOption(
    _ word: String, asValueOf option: OptionSpec, among known: [OptionSpec]
  ) throws(UsageError) {
    guard word.hasPrefix("-"), word != "-" else { return }
    let placeholder = option.valueName ?? "a value"
    if word == "--" {
      throw UsageError(
        message: "--\(option.name) needs \(placeholder), not --, which ends the options",
        hint: "write --\(option.name) \(placeholder)")
    }
    let (name, _) = split(option: word)
    let isOption =
      name == "help" || name == "h" || name == "version" || known.contains { $0.name == name }
    guard isOption else { return }
    throw UsageError(
      message: "--\(option.name) needs \(placeholder), not the option \(word)",
      hint: "write --\(option.name) \(placeholder); --\(option.name)=\(word) if that word is meant")
  }

  private static func split(option: String) -> (String, String?) {
    let body = option.drop { $0 == "-" }
    if let equals = body.firstIndex(of: "=") {
      return (String(body[..<equals]), String(body[body.index(after: equals)...]))
    }
    return (String(body), nil)
  }
}
