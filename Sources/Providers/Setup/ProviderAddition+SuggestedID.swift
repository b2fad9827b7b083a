import AuthCore
import Foundation

extension ProviderAddition {
  /// Host labels that name a server's role rather than its owner (`accounts.example.com`,
  /// `login.example.com`): the id is taken from the label after them.
  static let roleLabels: Set<String> = [
    "www", "id", "auth", "login", "accounts", "account", "sso", "oauth", "oauth2", "idp",
    "signin", "identity",
  ]

  /// An id for the provider at `issuer` that no provider of `taken` (nor a built-in preset)
  /// has: the owner's name from the issuer's host (`https://login.example.com/realms/x` gives
  /// `example`), or, for a loopback or numeric host, the issuer's last path segment
  /// (`http://127.0.0.1:8080/dynamic` gives `dynamic`); `provider` when the issuer is no URL;
  /// `-2`, `-3`… is added to an id in use.
  /// The person adding the provider may change it; it follows the provider-id rule.
  public static func suggestedID(forIssuer issuer: String, avoiding taken: Set<ProviderID>)
    -> ProviderID
  {
    let components = URLComponents(string: issuer.trimmingCharacters(in: .whitespaces))
    let host = components?.host?.lowercased() ?? ""
    var name: String
    if host.isEmpty {
      name = ""
    } else if host == "localhost" || host.contains(":")
      || host.allSatisfy({ $0.isNumber || $0 == "." })
    {
      name = components?.path.split(separator: "/").last.map(String.init) ?? "local"
    } else {
      var labels = host.split(separator: ".").map(String.init)
      if labels.count >= 2 { labels.removeLast() }
      while labels.count > 1, let first = labels.first, roleLabels.contains(first) {
        labels.removeFirst()
      }
      name = labels.first ?? ""
    }
    let base = idText(name) ?? "provider"
    let unavailable = taken.union(ProviderCatalog.presets.values.compactMap(\.id))
    var number = 1
    while true {
      let text = number == 1 ? base : "\(base)-\(number)"
      if let id = try? ProviderID(text), !unavailable.contains(id) { return id }
      number += 1
    }
  }

  /// `text` as provider-id text: lowercase letters, digits and single `-` between them, at
  /// most 48 characters (room for a number after it); nil when nothing is left.
  private static func idText(_ text: String) -> String? {
    var result = ""
    for character in text.lowercased() {
      if character.isASCII, character.isLetter || character.isNumber {
        result.append(character)
      } else if !result.isEmpty, result.last != "-" {
        result.append("-")
      }
    }
    while result.last == "-" { result.removeLast() }
    result = String(result.prefix(48))
    while result.last == "-" { result.removeLast() }
    return result.isEmpty ? nil : result
  }
}
