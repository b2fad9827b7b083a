/// One `--option` of a command, declared once: its name, placeholder, value type, help,
/// default (the property's own), visibility and repeatability, and the key path its value is
/// written to (swift-argument-parser's `@Option` and `@Flag`).
struct Option<Root: ParsableArguments>: Sendable {
  /// What it is, for the parser, help, the manual page and completion.
  var spec: OptionSpec
  /// Writes what the command line gives for it into the command; a value its type refuses, or
  /// a required option missing, is a usage error.
  let read: @Sendable (inout Root, Invocation, CommandContext) throws(CommandFailure) -> Void

  /// A flag: true when given.
  static func flag(_ name: String, _ path: WritableKeyPath<Root, Bool> & Sendable, help: String)
    -> Option
  {
    Option(spec: OptionSpec(name: name, valueName: nil, help: help)) { root, invocation, _ in
      if invocation.flags.contains(name) { root[keyPath: path] = true }
    }
  }

  /// An option followed by a value of `type` (shown as `valueName`, else as the type's
  /// placeholder), written to `path`. Absent, the property keeps its
  /// default; given more than once, the last value counts. `showsDefault` ends the help with
  /// the default (`(default 60)`). `required` makes the command need it, and says what it is
  /// when it is missing or empty ("'providers add' needs --issuer URL, the server's issuer…").
  /// `standsAlone` makes it a request of its own, which needs none of the command's arguments.
  static func value<Value>(
    _ name: String, _ path: WritableKeyPath<Root, Value> & Sendable, _ type: ValueType<Value>,
    _ valueName: String? = nil, help: String, showsDefault: Bool = false,
    required: String? = nil, hidden: Bool = false, standsAlone: Bool = false
  ) -> Option {
    let example = exampleText(Root()[keyPath: path])
    return valued(
      name, valueName, type, example: example,
      help: help + (showsDefault ? example.map { " (default \($0))" } ?? "" : ""),
      required: required, hidden: hidden, standsAlone: standsAlone
    ) { root, value in root[keyPath: path] = value }
  }

  /// An option followed by a value of `type`, written to an optional property (nil when it is
  /// not given); the rest as for a property with a default.
  static func value<Value>(
    _ name: String, _ path: WritableKeyPath<Root, Value?> & Sendable, _ type: ValueType<Value>,
    _ valueName: String? = nil, help: String, hidden: Bool = false, standsAlone: Bool = false,
    completion: CompletionModel.Words? = nil
  ) -> Option {
    valued(
      name, valueName, completion.map(type.completing) ?? type, example: nil, help: help,
      required: nil, hidden: hidden, standsAlone: standsAlone
    ) { root, value in root[keyPath: path] = value }
  }

  /// An option that may be given more than once, each value counting, and each holding one
  /// value or several separated by commas (`--flow pkce --flow device`, `--flow pkce,device`);
  /// every value is kept once, in the order first given.
  static func repeated<Value: Equatable>(
    _ name: String, _ path: WritableKeyPath<Root, [Value]> & Sendable, _ type: ValueType<Value>,
    _ valueName: String? = nil, help: String
  ) -> Option {
    var spec = OptionSpec(
      name: name, valueName: valueName ?? type.placeholder ?? "VALUE", help: help)
    spec.repeats = true
    spec.completion = type.completion
    return Option(spec: spec) { root, invocation, command throws(CommandFailure) in
      let context = command.valueContext("--" + name, example: nil)
      for text in invocation.everyValue[name] ?? [] {
        for word in text.split(separator: ",") {
          let value = try type.read(String(word), context)
          if !root[keyPath: path].contains(value) { root[keyPath: path].append(value) }
        }
      }
    }
  }

  /// An option followed by `valueCount` words (`--for METHOD URL`), read together by `type`
  /// as one text, the words joined by a space, into an optional property (nil when it is not
  /// given).
  static func words<Value>(
    _ name: String, count valueCount: Int, _ path: WritableKeyPath<Root, Value?> & Sendable,
    _ type: ValueType<Value>, _ valueName: String, help: String
  ) -> Option {
    var option = valued(
      name, valueName, type, example: nil, help: help, required: nil, hidden: false,
      standsAlone: false
    ) { root, value in root[keyPath: path] = value }
    option.spec.valueCount = valueCount
    return option
  }

  private static func valued<Value>(
    _ name: String, _ valueName: String?, _ type: ValueType<Value>, example: String?,
    help: String, required: String?, hidden: Bool, standsAlone: Bool,
    write: @escaping @Sendable (inout Root, Value) -> Void
  ) -> Option {
    let placeholder = valueName ?? type.placeholder ?? "VALUE"
    var spec = OptionSpec(name: name, valueName: placeholder, help: help)
    spec.hidden = hidden
    spec.isRequired = required != nil
    spec.standsAlone = standsAlone
    spec.completion = type.completion
    return Option(spec: spec) { root, invocation, command throws(CommandFailure) in
      guard let text = invocation.values[name], required == nil || !text.isEmpty else {
        if let required {
          throw CommandFailure(
            exitCode: .usage,
            message: "'\(command.name)' needs --\(name) \(placeholder), \(required)")
        }
        return
      }
      write(&root, try type.read(text, command.valueContext("--" + name, example: example)))
    }
  }
}

/// `value` as an example for a refusal (`60`), nil for an optional default (none given).
private func exampleText<Value>(_ value: Value) -> String? {
  if Mirror(reflecting: value).displayStyle == .optional { return nil }
  return String(describing: value)
}

/// The command being read, as refusals name it.
struct CommandContext: Sendable {
  /// Its words (`providers add`).
  let name: String
  /// Its usage line, without `authtui`.
  let usage: String

  /// The context of one value of this command, named `name`.
  func valueContext(_ name: String, example: String?) -> ValueContext {
    ValueContext(name: name, example: example, command: self.name, usage: usage)
  }
}
