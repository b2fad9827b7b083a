import Accounts
import AuthCore
import Providers
import Spelling

/// The kinds of values the commands read.
extension ValueType where Value == String {
  /// Any text.
  static var text: ValueType { ValueType { text, _ in text } }

  /// A file's path (a shell completes file names); an empty one is refused (`path`).
  static var file: ValueType {
    ValueType(completion: .files) { text, context throws(CommandFailure) in
      try path(text, of: "a file", variable: "FILE", context)
    }
  }

  /// A folder's path (a shell completes folder names); an empty one is refused (`path`).
  static var folder: ValueType {
    ValueType(completion: .folders) { text, context throws(CommandFailure) in
      try path(text, of: "a folder", variable: "DIR", context)
    }
  }

  /// `text`, a path of `what`, unless it is empty: a shell variable that is unset or empty
  /// (`--env-file "$FILE"`) gives an empty word, which would otherwise fail later as another
  /// problem (exit 1), or leave the default in the option's place (`--vault`).
  static func path(
    _ text: String, of what: String, variable: String, _ context: ValueContext
  ) throws(CommandFailure) -> String {
    guard text.isEmpty else { return text }
    throw CommandFailure(
      exitCode: .usage,
      message: "\(context.name) is empty; give the path of \(what) (a shell variable that is "
        + "unset or empty, as in \(context.name) \"$\(variable)\", gives an empty word)")
  }

  /// An account's name (`PROVIDER/LABEL`, `PROVIDER` or `#ID`): its form is checked here, so
  /// that a malformed one is a usage error before any passphrase is asked; whether such an
  /// account exists, by the account book when it is used. A shell completes the vault's
  /// account names.
  static var account: ValueType {
    ValueType(completion: .accounts) { text, context throws(CommandFailure) in
      try refuseUnsafe(text, context, example: "simkl/alice", list: "`authtui list`")
      do throws(AccountsError) {
        _ = try AccountReference(parsing: text)
      } catch {
        throw CommandFailure(exitCode: ExitCode(error), message: error.message)
      }
      return text
    }
  }

  /// A provider as typed, checked against the catalog when it is used (`login PROVIDER`); a
  /// shell completes the provider ids.
  static var provider: ValueType {
    ValueType(completion: .providers) { text, context throws(CommandFailure) in
      try refuseUnsafe(text, context, example: "simkl", list: "`authtui providers`")
      return text
    }
  }

  /// Refuses a name holding a character that would act on a terminal or a log rather than
  /// show (a control character such as a line break, or a direction mark): no account label
  /// or provider id holds one, and echoed in a message it could forge a line. The message
  /// shows each as `\u{A}`.
  private static func refuseUnsafe(
    _ text: String, _ context: ValueContext, example: String, list: String
  ) throws(CommandFailure) {
    guard let scalar = text.unicodeScalars.first(where: TerminalText.isUnsafe) else { return }
    let code = String(scalar.value, radix: 16, uppercase: true)
    throw CommandFailure(
      exitCode: .usage,
      message: "\(context.name) \(MessageQuoting.quoted(text)) holds U+\(code), a control "
        + "character or direction mark, which no name holds; type the name alone, such as "
        + "\(example) (\(list) shows them)")
  }

  /// One of authtui's commands (`help COMMAND`); a shell completes the command words.
  static var command: ValueType { ValueType(completion: .commands) { text, _ in text } }

  /// The name of an environment variable (`--var`): a name a shell can set.
  static var variableName: ValueType {
    ValueType { text, _ throws(CommandFailure) in
      guard EnvFile.isValidVariableName(text) else {
        throw CommandFailure(exitCode: .usage, message: EnvFile.notAVariableName(text))
      }
      return text
    }
  }

  /// The variable that holds the token for `exec`'s COMMAND: a shell variable name that no
  /// loader, shell or authtui gives a meaning of its own (`TokenVariableName`).
  static var execVariableName: ValueType { tokenVariableName(for: .exec) }

  /// The variable that holds the token in an env file (`export --var`), as for `exec`.
  static var envFileVariableName: ValueType { tokenVariableName(for: .envFile) }

  private static func tokenVariableName(for use: TokenVariableName.Use) -> ValueType {
    ValueType { text, context throws(CommandFailure) in
      let name = try variableName.read(text, context)
      if let refusal = TokenVariableName.refusal(name, for: use) {
        throw CommandFailure(exitCode: .usage, message: refusal)
      }
      return name
    }
  }

  /// A client id the provider gave (`--client-id`): what the provider-setup form accepts.
  static var clientID: ValueType {
    ValueType { text, context throws(CommandFailure) in
      do throws(ProviderSetupError) {
        return try ProviderSetup.checkedClientID(text)
      } catch {
        throw CommandFailure(exitCode: .usage, message: "\(context.name): \(error.description)")
      }
    }
  }
}

extension ValueType where Value == String? {
  /// Text where an empty value means none (`--name ""`).
  static var nonEmptyText: ValueType { ValueType { text, _ in text.isEmpty ? nil : text } }
}

extension ValueType where Value == Int {
  /// A whole number of seconds, 0 to a year (a longer wait is no wait a person means); the
  /// refusal's example is `example`, else the declared default.
  static func seconds(example: Int? = nil) -> ValueType {
    ValueType { text, context throws(CommandFailure) in
      guard let number = Int(text), number >= 0, number <= longestWait else {
        let example = (example.map(String.init) ?? context.example).map {
          " (for example \(context.name) \($0))"
        }
        // Digits alone are a whole number, only too large to be a wait.
        let what =
          !text.isEmpty && text.allSatisfy { ("0"..."9").contains($0) }
          ? "at most \(longestWait) seconds (a year)" : "a whole number of seconds"
        throw CommandFailure(
          exitCode: .usage,
          message: "\(context.name) takes \(what), not \"\(text)\"" + (example ?? ""))
      }
      return number
    }
  }

  /// The longest wait `seconds` takes: a year.
  static let longestWait = 31_536_000
}

extension ValueType where Value == ProviderID {
  /// A provider id as a provider file would have it (`work-sso`).
  static var providerID: ValueType {
    ValueType { text, _ throws(CommandFailure) in
      do throws(ProviderIDError) {
        return try ProviderID(text)
      } catch {
        throw CommandFailure(exitCode: .usage, message: error.description)
      }
    }
  }
}

extension ValueType where Value == SignInFlow {
  /// One of `flows`.
  static func flow(among flows: [SignInFlow]) -> ValueType { .choice(flows) }
}

extension ValueType where Value == ClientSecret {
  /// The client secret on the first line of the file at the path given
  /// (`--client-secret-file`): secrets stay out of argv.
  static var secretFile: ValueType {
    ValueType(completion: .files) { path, context throws(CommandFailure) in
      _ = try ValueType<String>.path(path, of: "a file", variable: "FILE", context)
      let text: String
      do {
        text = try ConfigurationFile.read(path: path)
      } catch {
        throw CommandFailure(exitCode: .usage, message: "\(context.name) \(path) \(error)")
      }
      let line = String(text.prefix { $0 != "\n" && $0 != "\r\n" })
      do throws(ProviderSetupError) {
        return try ProviderSetup.checkedClientSecret(line)
      } catch {
        throw CommandFailure(
          exitCode: .usage,
          message: "\(context.name) \(path): its first line must be the client secret; "
            + error.description)
      }
    }
  }
}
