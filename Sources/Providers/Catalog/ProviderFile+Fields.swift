import AuthCore
import Foundation

/// `fields`: named values a preset declares with a default (`"fields": {"tenant": "common"}`)
/// and uses as `{tenant}` in its issuer and endpoints, so a user file changes one value
/// (`"fields": {"tenant": "contoso.onmicrosoft.com"}`) instead of copying every URL.
extension ProviderFile {
  /// A field name: lowercase letters, digits and `_`, starting with a letter.
  static func isFieldName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
    return name.unicodeScalars.allSatisfy {
      ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
    }
  }

  /// A field value lands inside URL paths, so it may hold only letters, digits, `.`, `-` and
  /// `_`: never `/`, `?`, `#`, `%`, `&` or anything else that would change which URL is meant.
  /// Nil when `value` is acceptable, else why not.
  static func fieldValueProblem(_ value: String) -> String? {
    let allowed = value.unicodeScalars.allSatisfy {
      $0.isASCII
        && (("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || $0 == "." || $0 == "-" || $0 == "_")
    }
    guard value.isEmpty || !allowed || value.hasPrefix(".") else { return nil }
    return "a field value is a name or an id inside a URL: 1 or more letters, digits, '.', '-' "
      + "or '_', not starting with '.' (no '/', '?', '#', '%' or spaces)"
  }

  /// This file with every `{name}` of its `fields`, and the built-in `{client_id}` (when the
  /// file has one) and `{version}`, replaced in the issuer, the endpoints, the parameters and
  /// the user agent; the names of placeholders left with no value, for the problem report;
  /// and the id_token issuer template `id_token_issuer_fields` makes of `issuer` (its field
  /// replaced by `{claim}`, the other fields filled).
  func fillingFields() -> (file: ProviderFile, unresolved: [String], issuerTemplate: String?) {
    var builtIn = ["version": AuthTUIVersion.current]
    if let clientID { builtIn["client_id"] = clientID }
    let values = (fields ?? [:]).merging(builtIn) { _, own in own }
    var unresolved: Set<String> = []
    func fill(_ text: String, keeping kept: String? = nil) -> String {
      var result = text
      for (name, value) in values where name != kept {
        result = result.replacingOccurrences(of: "{\(name)}", with: value)
          .replacingOccurrences(of: "%7B\(name)%7D", with: value)
      }
      if kept == nil {
        for name in Self.placeholders(in: result) { unresolved.insert(name) }
      }
      return result
    }
    func fill(_ url: URL?) -> URL? {
      guard let url else { return nil }
      return URL(string: fill(url.absoluteString)) ?? url
    }
    var template: String?
    if let issuer, let (field, claim) = idTokenIssuerFields?.first, issuer.contains("{\(field)}") {
      template = fill(issuer, keeping: field).replacingOccurrences(
        of: "{\(field)}", with: "{\(claim)}")
    }
    var file = self
    file.issuer = issuer.map { fill($0) }
    file.endpoints = endpoints.compactMapValues { fill($0) }
    file.postLogoutRedirectURI = fill(postLogoutRedirectURI)
    file.extraAuthorizeParameters = extraAuthorizeParameters?.mapValues { fill($0) }
    file.extraRequestParameters = extraRequestParameters?.mapValues { fill($0) }
    if var identity, case .endpoint(let url) = identity.source, let filled = fill(url) {
      identity.source = .endpoint(filled)
      file.identity = identity
    }
    file.accessSettingsURL = accessSettingsURL.map { fill($0) }
    file.userAgent = userAgent.map { fill($0) }
    // A missing client id is reported on its own, with where to register for one.
    unresolved.remove("client_id")
    return (file, unresolved.sorted(), template)
  }

  /// The `{name}` placeholders of `text` (braces as written or percent-encoded) whose name is
  /// a field name.
  static func placeholders(in text: String) -> [String] {
    let normalized = text.replacingOccurrences(of: "%7B", with: "{")
      .replacingOccurrences(of: "%7D", with: "}")
    var names: [String] = []
    var rest = normalized[...]
    while let open = rest.firstIndex(of: "{") {
      let after = rest[rest.index(after: open)...]
      guard let close = after.firstIndex(of: "}") else { break }
      let name = String(after[..<close])
      if isFieldName(name) { names.append(name) }
      rest = after[after.index(after: close)...]
    }
    return names
  }
}
