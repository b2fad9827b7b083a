/// One positional argument of a command, declared once: its name, value type and the key path
/// its value is written to (swift-argument-parser's `@Argument`).
struct Argument<Root: ParsableArguments>: Sendable {
  /// What it is, for the parser, help and completion.
  let spec: ArgumentSpec
  /// Writes the words it takes (one; every word after `--` for the command to run) into the
  /// command; a value its type refuses is a usage error.
  let read:
    @Sendable (inout Root, ArraySlice<String>, CommandContext) throws(CommandFailure) -> Void

  /// An argument the command needs, of `type`, written to `path`.
  static func required<Value>(
    _ name: String, _ path: WritableKeyPath<Root, Value> & Sendable, _ type: ValueType<Value>
  ) -> Argument {
    single(name, type, isRequired: true) { root, value in root[keyPath: path] = value }
  }

  /// An argument the command needs, written to a property that is nil only until it is read:
  /// for a type with no value to start from (`ProviderID`).
  static func required<Value>(
    _ name: String, _ path: WritableKeyPath<Root, Value?> & Sendable, _ type: ValueType<Value>
  ) -> Argument {
    single(name, type, isRequired: true) { root, value in root[keyPath: path] = value }
  }

  /// An argument that may be left out (nil then); the optional arguments come last.
  static func optional<Value>(
    _ name: String, _ path: WritableKeyPath<Root, Value?> & Sendable, _ type: ValueType<Value>
  ) -> Argument {
    single(name, type, isRequired: false) { root, value in root[keyPath: path] = value }
  }

  /// The command to run and its arguments, every word after `--` (`exec ACCOUNT -- COMMAND
  /// [ARGS...]`): options there are the command's, not authtui's. It comes after the other
  /// arguments, which must all stand before `--`.
  static func commandAfterSeparator(_ path: WritableKeyPath<Root, [String]> & Sendable)
    -> Argument
  {
    // A program of this machine, then its arguments.
    let spec = ArgumentSpec(
      name: "COMMAND", shownAs: "-- COMMAND [ARGS...]", isRequired: true, followsSeparator: true,
      completion: .programs)
    return Argument(spec: spec) { root, words, _ in root[keyPath: path] = Array(words) }
  }

  /// The command to run and its arguments, every word after `--`, which may be left out
  /// (`ssh DESTINATION [-- COMMAND...]`: without it, a login shell).
  static func optionalCommandAfterSeparator(
    _ path: WritableKeyPath<Root, [String]> & Sendable
  ) -> Argument {
    // It runs on the other machine: nothing here to offer.
    let spec = ArgumentSpec(
      name: "COMMAND", shownAs: "[-- COMMAND [ARGS...]]", isRequired: false,
      followsSeparator: true, completion: .none)
    return Argument(spec: spec) { root, words, _ in root[keyPath: path] = Array(words) }
  }

  /// Every word before `--`, options included, for another program that reads them
  /// (`ssh [SSH OPTION]... DESTINATION`), shown as `shownAs`; at least one.
  static func everyWord(
    _ name: String, shownAs: String, _ path: WritableKeyPath<Root, [String]> & Sendable
  ) -> Argument {
    var spec = ArgumentSpec(
      name: name, shownAs: shownAs, isRequired: true, followsSeparator: false,
      completion: .none)
    spec.takesEveryWord = true
    return Argument(spec: spec) { root, words, _ in root[keyPath: path] = Array(words) }
  }

  private static func single<Value>(
    _ name: String, _ type: ValueType<Value>, isRequired: Bool,
    write: @escaping @Sendable (inout Root, Value) -> Void
  ) -> Argument {
    let spec = ArgumentSpec(
      name: name, shownAs: type.placeholder, isRequired: isRequired, followsSeparator: false,
      completion: type.completion)
    return Argument(spec: spec) { root, words, command throws(CommandFailure) in
      guard let text = words.first else { return }
      write(&root, try type.read(text, command.valueContext(name, example: nil)))
    }
  }
}
