import AuthCore
import JSON
import Spelling

extension UserSettings {
  /// Reads the `git` object: URL prefix to `"PROVIDER/LABEL"` or to
  /// `{"account": "PROVIDER/LABEL", "username": "oauth2"}`. Each bad entry is reported with its
  /// line and left out; the others are kept.
  static func gitRoutes(_ value: JSONValue, reader: inout FieldReader) -> [GitCredentialRoute] {
    guard case .object(let members) = value else {
      reader.typeMismatch(
        "git",
        expected: "an object of URLs to accounts ({\"https://git.example.com\": "
          + "\"work/alice\"})", found: value)
      return []
    }
    var routes: [GitCredentialRoute] = []
    var seen: [GitURLPrefix: String] = [:]
    let ordered = members.keys.sorted {
      (reader.document.position(of: "git." + $0), $0) < (
        reader.document.position(of: "git." + $1), $1
      )
    }
    for url in ordered {
      let field = "git." + url
      guard let member = members[url] else { continue }
      let prefix: GitURLPrefix
      switch GitURLPrefix.parse(url) {
      case .success(let parsed): prefix = parsed
      case .failure(let problem):
        reader.report(field, "the URL \(problem)")
        continue
      }
      if let earlier = seen[prefix] {
        reader.report(field, "names the same URL as \(MessageQuoting.quoted(earlier)); keep one")
        continue
      }
      let account: String
      var username: String?
      switch member {
      case .string(let text): account = text
      case .object(let fields):
        // Reported at the entry: a URL holds dots, which a dotted path cannot get past.
        for name in fields.keys.sorted() where !["account", "username"].contains(name) {
          let close = SpellingSuggestion.closest(
            to: name, among: ["account", "username"], maximumDistance: 3)
          reader.report(
            field,
            "unknown field \(MessageQuoting.quoted(name))"
              + (close.map { " (did you mean \"\($0)\"?)" } ?? "")
              + "; an entry holds \"account\" and optionally \"username\"")
        }
        guard case .string(let text)? = fields["account"] else {
          reader.report(field, "needs \"account\": \"PROVIDER/LABEL\"")
          continue
        }
        account = text
        if let name = fields["username"] {
          guard case .string(let text) = name, !text.isEmpty,
            !text.contains(where: { $0.isNewline || $0 == "\0" })
          else {
            reader.report(field, "\"username\" must be a non-empty string on one line")
            continue
          }
          username = text
        }
      default:
        reader.typeMismatch(
          field, expected: "\"PROVIDER/LABEL\" or {\"account\": …, \"username\": …}",
          found: member)
        continue
      }
      guard let problem = accountProblem(account) else {
        seen[prefix] = url
        routes.append(
          GitCredentialRoute(url: url, prefix: prefix, account: account, username: username))
        continue
      }
      reader.report(field, problem)
    }
    return routes
  }

  /// Why `account` cannot name the account of a git route: it must be `PROVIDER/LABEL`, so the
  /// token git gets does not change when another account of the provider is added.
  /// `git-credential setup` refuses what this would.
  package static func accountProblem(_ account: String) -> String? {
    let parts = account.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2, (try? ProviderID(String(parts[0]))) != nil, !parts[1].isEmpty,
      !parts[1].contains(where: { $0.isNewline || $0 == "\0" })
    else {
      return "the account \(MessageQuoting.quoted(account)) is not PROVIDER/LABEL "
        + "(work/alice, as `authtui list` shows it)"
    }
    return nil
  }
}
