import Foundation
import Locations

/// The one command line the front of `authtui` answers itself: `token ACCOUNT`, with
/// `--min-valid SECONDS` and `--vault PATH` (each as `--name VALUE` or `--name=VALUE`, at most
/// once, after the command word).
///
/// Anything else, including every malformed or unusual form of these (a repeated option, `--`,
/// a value that is not a plain number, options before `token`), is not recognised: the full
/// program then parses the command line, so its usage errors stay the only ones.
package struct TokenShortcut: Sendable, Equatable {
  /// The account as written.
  package let account: String
  /// `--min-valid`, in seconds (60 when absent, as for the full program).
  package let minimumValidity: Int
  /// `--vault`, when given.
  package let vault: String?

  /// Recognises `arguments` (argv without the program's name), or nil.
  package init?(arguments: [String]) {
    guard arguments.first == "token" else { return nil }
    var account: String?
    var values: [String: String] = [:]
    var rest = arguments.dropFirst()[...]
    while let argument = rest.popFirst() {
      guard argument.hasPrefix("--") else {
        // One account, and never an argument the full program would read as something else.
        guard account == nil, !argument.isEmpty, !argument.hasPrefix("-") else { return nil }
        account = argument
        continue
      }
      var name = String(argument.dropFirst(2))
      let value: String
      if let equals = name.firstIndex(of: "=") {
        value = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      } else if let next = rest.popFirst() {
        value = next
      } else {
        return nil
      }
      guard name == "min-valid" || name == "vault", values[name] == nil, !value.isEmpty else {
        return nil
      }
      values[name] = value
    }
    guard let account else { return nil }
    var minimumValidity = 60
    if let text = values["min-valid"] {
      // Digits only: the full program explains everything else.
      guard text.utf8.count <= 8, text.utf8.allSatisfy({ (48...57).contains($0) }),
        let number = Int(text), number <= AgentRequest.maximumValidity
      else { return nil }
      minimumValidity = number
    }
    self.account = account
    self.minimumValidity = minimumValidity
    self.vault = values["vault"]
  }

  /// The agent request for this command line, started at `startedAt`, in the environment
  /// whose variables `variable` reads.
  package func request(variable: (String) -> String?, startedAt: Date) -> AgentRequest {
    let location = VaultLocation.resolve(explicitPath: vault, variable: variable)
    return AgentRequest(
      operation: .token(account: account, minimumValidity: minimumValidity, startedAt: startedAt),
      vault: location.canonicalPath)
  }
}
