import Accounts

/// The export dialog: where the token goes (an env file or the clipboard), the file's path and
/// the variable's name.
public struct ExportForm: Sendable, Equatable {
  /// Where the token goes.
  public enum Destination: Sendable, Equatable {
    case envFile, clipboard
  }

  /// The fields, in focus order.
  public enum Field: Int, Sendable, CaseIterable {
    case destination, path, variable
  }

  /// The account exported.
  public var account: AccountName
  /// Where the token goes.
  public var destination: Destination = .envFile
  /// The env file's path (`~` allowed).
  public var path: TextField
  /// The variable's name.
  public var variable: TextField
  /// The focused field.
  public var focus: Field = .destination
  /// Why the form cannot be submitted as it is.
  public var problem: String?

  /// The form for `account`, with the default path `<config dir>/env/PROVIDER.env` (or
  /// `PROVIDER-LABEL.env` when the provider has several accounts) and `PROVIDER_TOKEN`.
  public init(account: AccountName, configDirectory: String, onlyAccountOfProvider: Bool) {
    self.account = account
    let fileName =
      onlyAccountOfProvider
      ? account.provider.rawValue : account.provider.rawValue + "-" + Self.fileSafe(account.label)
    path = TextField(configDirectory + "/env/" + fileName + ".env")
    variable = TextField(EnvFile.defaultVariableName(provider: account.provider, label: nil))
  }

  /// The fields that can take the focus for the current destination.
  public var fields: [Field] {
    destination == .envFile ? Field.allCases : [.destination]
  }

  /// True for a POSIX shell variable name: a letter or `_`, then letters, digits and `_`.
  public static func isValidVariableName(_ name: String) -> Bool {
    guard let first = name.first, first.isASCII, first.isLetter || first == "_" else {
      return false
    }
    return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
  }

  private static func fileSafe(_ label: String) -> String {
    let kept = label.map { character -> Character in
      character.isLetter || character.isNumber || character == "-" || character == "."
        ? character : "_"
    }
    return String(kept)
  }
}
