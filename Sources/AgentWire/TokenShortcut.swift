import Locations
import Spelling

/// The one command line the front of `authtui` answers itself: `token ACCOUNT`, with
/// `--min-valid SECONDS` and `--vault PATH` (each as `--name VALUE` or `--name=VALUE`, at most
/// once, after the command word), and `--header --for METHOD URL` together (each at most
/// once, `--for` followed by its two words): the headers for one request, a DPoP proof the
/// agent signs among them.
///
/// Anything else, including every malformed or unusual form of these (a repeated option, `--`,
/// a value that is not a plain number, a separate value that starts with `-`, options before
/// `token`, a URL other than a plain one),
/// is not recognised: the full program then parses the command line, so its usage errors stay
/// the only ones.
package struct TokenShortcut: Sendable, Equatable {
  /// The account as written.
  package let account: String
  /// `--min-valid`, in seconds (60 when absent, as for the full program).
  package let minimumValidity: Int
  /// `--vault`, when given.
  package let vault: String?
  /// `--header --for METHOD URL`, when given: the request the headers are for, its URL one
  /// the full program would send as it is written (`ProofTarget.plainURL`).
  package let target: TokenRequest.Target?

  /// Recognises `arguments` (argv without the program's name), or nil.
  package init?(arguments: [String]) {
    guard arguments.first == "token" else { return nil }
    var account: String?
    var values: [String: String] = [:]
    var header = false
    var target: TokenRequest.Target?
    var rest = arguments.dropFirst()[...]
    while let argument = rest.popFirst() {
      if argument == "--header" {
        guard !header else { return nil }
        header = true
        continue
      }
      if argument == "--for" {
        // Exactly as the full program reads it: the next two words, whatever they are.
        guard target == nil, let methodWord = rest.popFirst(), let urlWord = rest.popFirst(),
          let method = ProofTarget.method(methodWord), let url = ProofTarget.plainURL(urlWord)
        else { return nil }
        target = TokenRequest.Target(method: method, url: url)
        continue
      }
      guard argument.hasPrefix("--") else {
        // One account, and never an argument the full program would read as something else.
        // One holding a control character is refused by the full program's parser.
        guard account == nil, !argument.isEmpty, !argument.hasPrefix("-"),
          TerminalText.isClean(argument)
        else { return nil }
        account = argument
        continue
      }
      var name = String(argument.dropFirst(2))
      let value: String
      if let equals = name.firstIndex(of: "=") {
        value = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      } else if let next = rest.popFirst(), !next.hasPrefix("-") {
        // A word that could be an option (`--vault --header`) is not taken as a value here:
        // the full program refuses the ones it reads as options.
        value = next
      } else {
        return nil
      }
      guard name == "min-valid" || name == "vault", values[name] == nil, !value.isEmpty else {
        return nil
      }
      values[name] = value
    }
    // `--header` alone, and `--for` without it, are the full program's to answer.
    guard let account, header == (target != nil) else { return nil }
    var minimumValidity = 60
    if let text = values["min-valid"] {
      // Digits only: the full program explains everything else.
      guard text.utf8.count <= 8, text.utf8.allSatisfy({ (48...57).contains($0) }),
        let number = Int(text), number <= TokenRequest.maximumValidity
      else { return nil }
      minimumValidity = number
    }
    self.account = account
    self.minimumValidity = minimumValidity
    self.vault = values["vault"]
    self.target = target
  }

  /// The agent request for this command line, started at `startedAt` (seconds since 1970), in
  /// the environment whose variables `variable` reads; nil when only the password database
  /// could say where the vault is (`HOME` unset), which the front leaves to the full program.
  package func request(variable: (String) -> String?, startedAt: Double) -> TokenRequest? {
    guard
      let location = VaultLocation.resolve(
        explicitPath: vault, variable: variable, homeFolder: { nil })
    else { return nil }
    return TokenRequest(
      account: account, minimumValidity: minimumValidity, startedAt: startedAt, target: target,
      vault: location.canonicalPath)
  }
}
