/// How the text of an argument or an option becomes its typed value (swift-argument-parser's
/// `ExpressibleByArgument`, as a value rather than a conformance, so that one Swift type can be
/// read in two ways): the placeholder help shows, what a shell completes, and the reading,
/// whose refusal names the problem and the fix.
struct ValueType<Value: Sendable>: Sendable {
  /// The placeholder when the declaration names none: the choices (`pkce|device|pin`).
  let placeholder: String?
  /// What a shell may complete for it.
  let completion: CompletionModel.Words
  /// The value `text` stands for, or the usage error that says what to write instead.
  let read: @Sendable (_ text: String, _ context: ValueContext) throws(CommandFailure) -> Value

  /// A value type read by `read`.
  init(
    placeholder: String? = nil, completion: CompletionModel.Words = .none,
    read:
      @escaping @Sendable (_ text: String, _ context: ValueContext) throws(CommandFailure)
      -> Value
  ) {
    self.placeholder = placeholder
    self.completion = completion
    self.read = read
  }

  /// The same reading, completed as `completion` says.
  func completing(_ completion: CompletionModel.Words) -> ValueType {
    ValueType(placeholder: placeholder, completion: completion, read: read)
  }

  /// One of `cases`, each written as `word` gives it; anything else is refused with
  /// `refusal`, by default "--flow is pkce, device or pin, not "magic"".
  static func choice(
    _ cases: [Value], word: @escaping @Sendable (Value) -> String,
    refusal: (@Sendable (_ text: String, _ context: ValueContext) -> String)? = nil
  ) -> ValueType {
    let words = cases.map(word)
    return ValueType(placeholder: words.joined(separator: "|"), completion: .choices(words)) {
      text, context throws(CommandFailure) in
      guard let value = cases.first(where: { word($0) == text }) else {
        let message =
          refusal?(text, context)
          ?? "\(context.name) is \(Self.alternatives(words)), not \"\(text)\""
        throw CommandFailure(exitCode: .usage, message: message)
      }
      return value
    }
  }

  /// `a, b or c`.
  private static func alternatives(_ words: [String]) -> String {
    guard let last = words.last, words.count > 1 else { return words.first ?? "" }
    return words.dropLast().joined(separator: ", ") + " or " + last
  }
}

extension ValueType where Value: RawRepresentable, Value.RawValue == String {
  /// One of `cases`, written as its raw value.
  static func choice(
    _ cases: [Value],
    refusal: (@Sendable (_ text: String, _ context: ValueContext) -> String)? = nil
  ) -> ValueType {
    choice(cases, word: { $0.rawValue }, refusal: refusal)
  }
}

/// What a value's refusal can name: the option or argument, the declared default, and the
/// command with its usage line.
struct ValueContext: Sendable {
  /// `--min-valid`, or an argument's name (`ID`).
  let name: String
  /// The declared default as text (`60`), the example a refusal gives; nil when the default is
  /// "not given".
  let example: String?
  /// The command's words (`providers add`).
  let command: String
  /// The command's usage line, without `authtui`.
  let usage: String
}
