import AuthCore
import Foundation
import JSON
import Spelling

extension ProviderFile {
  /// Reads a provider file, checking every field's type and value against DESIGN.md
  /// "Configuration"; returns the file, or every problem found (each with its line).
  public static func decode(_ text: String, file: String) -> Result<ProviderFile, ProblemList> {
    let document: JSONDocument
    do {
      document = try JSONParser.parse(text)
    } catch {
      return .failure(
        ProblemList([
          ProviderProblem(
            file: file, position: error.position, field: nil,
            message: "not valid JSON: \(error.message)")
        ]))
    }
    var reader = FieldReader(document: document, file: file)
    let decoded = reader.readProviderFile()
    return reader.problems.isEmpty ? .success(decoded) : .failure(ProblemList(reader.problems))
  }
}

/// Several problems found in one file, reported together so the user fixes them in one pass.
public struct ProblemList: Error, Sendable, Equatable {
  public let problems: [ProviderProblem]

  public init(_ problems: [ProviderProblem]) {
    self.problems = problems
  }
}

extension FieldReader {
  mutating func readProviderFile() -> ProviderFile {
    guard case .object(let members) = document.root else {
      report(nil, "a provider file holds one JSON object ({ \"id\": …, \"client_id\": … })")
      return ProviderFile()
    }
    var file = ProviderFile()
    file.id = string("id").flatMap { text in
      do throws(ProviderIDError) {
        return try ProviderID(text)
      } catch {
        report("id", error.description)
        return nil
      }
    }
    file.name = string("name")
    file.preset = string("preset")
    file.issuer = string("issuer")
    if let issuer = file.issuer, let url = URL(string: issuer),
      !ProviderConfiguration.isAllowedEndpoint(url)
    {
      report("issuer", Self.insecureMessage(issuer))
    }
    file.idTokenIssuerFields = readIDTokenIssuerFields()
    file.errorAliases = stringMap("error_aliases")
    file.fields = readFields()
    file.clientID = string("client_id").flatMap { $0.isEmpty ? nil : $0 }
    file.clientSecret = string("client_secret").flatMap { $0.isEmpty ? nil : ClientSecret($0) }
    file.clientSecretRequired = bool("client_secret_required")
    file.flows = stringList("flows")?.enumerated().compactMap { index, name in
      if let flow = SignInFlow(rawValue: name) { return flow }
      report(
        "flows[\(index)]",
        "unknown flow \(MessageQuoting.quoted(name)); use \"pkce\" (browser), \"device\" (RFC 8628 code) or \"pin\" (Simkl PIN)"
      )
      return nil
    }
    file.scopes = stringList("scopes")
    for name in ProviderEndpoint.allCases {
      file.endpoints[name] = endpoint(name.rawValue)
    }
    file.redirectPort = integer("redirect_port", in: 1...65535).map { UInt16($0) }
    file.redirectPath = string("redirect_path").flatMap { path in
      if path.hasPrefix("/") && !path.contains("?") && !path.contains("#") { return path }
      report(
        "redirect_path",
        "must be a path starting with \"/\" without ? or #, for example \"/callback\"")
      return nil
    }
    file.tokenRequestEncoding = choice(
      "token_request_encoding", from: [TokenRequestEncoding.form, .json])
    file.loginTimeout = integer("login_timeout", in: 10...3600).map { TimeInterval($0) }
    file.extraAuthorizeParameters = stringMap("extra_authorize_params")
    file.extraRequestParameters = stringMap("extra_request_params")
    file.extraRequestParametersLocation = choice(
      "extra_request_params_location", from: [ParameterLocation.body, .query])
    file.userAgent = string("user_agent")
    file.issuerInAuthorizationResponse = bool("authorization_response_iss_parameter_supported")
    file.usesDiscovery = bool("discovery")
    file.postLogoutRedirectURI = endpoint("post_logout_redirect_uri")
    file.postLogoutUsesRedirectURI = bool("post_logout_uses_redirect_uri")
    file.identity = readIdentity()
    file.accessSettingsURL = string("access_settings_url")
    file.registrationURL = string("registration_url")
    file.registrationNote = string("registration_note")
    file.refreshRequiresClientSecret = bool("refresh_requires_client_secret")
    file.applicationType = string("application_type")
    // Up to ten years, in seconds.
    file.refreshTokenLifetime = integer("refresh_token_lifetime", in: 0...315_360_000)
    file.scopeSeparator = readScopeSeparator()
    file.registrationClientURI = endpoint("registration_client_uri")
    file.registrationAccessToken = string("registration_access_token").flatMap {
      $0.isEmpty ? nil : RegistrationAccessToken($0)
    }
    file.pushedAuthorization = choice("par", from: ProtocolMode.allCases)
    file.dpop = choice("dpop", from: ProtocolMode.allCases)
    // Known are the fields read above: each is named once, where it is read.
    reportUnknownFields(
      of: members, known: knownFields(),
      fix: "the fields are listed in docs/providers.md under \"Provider file fields\"")
    return file
  }

  /// `fields`: names of lowercase letters, digits and `_`; values safe inside a URL path.
  mutating func readFields() -> [String: String]? {
    guard let fields = stringMap("fields") else { return nil }
    var accepted: [String: String] = [:]
    for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
      guard ProviderFile.isFieldName(name) else {
        report(
          "fields",
          "\(MessageQuoting.quoted(name)) is not a field name; use lowercase letters, "
            + "digits and '_', starting with a letter (e.g. \"tenant\")")
        continue
      }
      if let problem = ProviderFile.fieldValueProblem(value) {
        report(
          "fields.\(name)",
          "\(MessageQuoting.quoted(value)) cannot be used: \(problem); set "
            + "\"fields\": {\"\(name)\": \"…\"} to such a value")
        continue
      }
      accepted[name] = value
    }
    return accepted
  }

  /// `scope_separator`: one visible ASCII character between granted scopes (a space, RFC
  /// 6749's, is the default).
  mutating func readScopeSeparator() -> String? {
    guard let separator = string("scope_separator") else { return nil }
    guard separator.unicodeScalars.count == 1, let scalar = separator.unicodeScalars.first,
      (0x21...0x7E).contains(scalar.value)
    else {
      report(
        "scope_separator",
        "is one visible ASCII character, for example \",\" (a space is the default)")
      return nil
    }
    return separator
  }

  /// `id_token_issuer_fields`: one field of `issuer`, and the claim that fills it.
  mutating func readIDTokenIssuerFields() -> [String: String]? {
    guard let map = stringMap("id_token_issuer_fields") else { return nil }
    let example = "for example {\"tenant\": \"tid\"}"
    guard map.count == 1, let (field, claim) = map.first, ProviderFile.isFieldName(field),
      !claim.isEmpty,
      claim.unicodeScalars.allSatisfy({
        $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_")
      })
    else {
      report(
        "id_token_issuer_fields",
        "names one field of \"issuer\" and the id_token claim that fills it, \(example)")
      return nil
    }
    return [field: claim]
  }

  /// `identity`: where the account's label comes from after a sign-in.
  mutating func readIdentity() -> IdentityConfiguration? {
    guard let value = lookUp("identity") else { return nil }
    guard case .object(let members) = value else {
      typeMismatch("identity", expected: "an object ({\"source\": \"userinfo\", …})", found: value)
      return nil
    }
    let sourceName = string("identity.source")
    let endpoint = endpoint("identity.endpoint")
    let labels = stringList("identity.label", allowingSingleString: true) ?? []
    let subjects = stringList("identity.subject", allowingSingleString: true) ?? []
    let emails = stringList("identity.email", allowingSingleString: true) ?? []
    let names = stringList("identity.name", allowingSingleString: true) ?? []
    let hint = string("identity.forbidden_scope_hint")
    let tenants = stringList("identity.tenant", allowingSingleString: true) ?? []
    let known = knownFields(under: "identity.")
    reportUnknownFields(
      of: members, known: known, prefix: "identity.",
      fix: "identity takes " + known.joined(separator: ", "))
    guard let sourceName else {
      report(
        "identity",
        "needs a \"source\": one of "
          + IdentityConfiguration.Source.wireNames.joined(separator: ", "))
      return nil
    }
    guard let source = IdentityConfiguration.Source(wireName: sourceName, endpoint: endpoint) else {
      if sourceName == "endpoint" {
        report("identity.source", "an \"endpoint\" source needs the URL in \"endpoint\"")
      } else {
        report(
          "identity.source",
          "unknown source \(MessageQuoting.quoted(sourceName)); use one of "
            + IdentityConfiguration.Source.wireNames.joined(separator: ", "))
      }
      return nil
    }
    if labels.isEmpty && subjects.isEmpty {
      report(
        "identity.label", "list the JSON paths that hold the account's name, e.g. [\"user.name\"]")
      return nil
    }
    return IdentityConfiguration(
      source: source, labelPaths: labels, subjectPaths: subjects, emailPaths: emails,
      namePaths: names, forbiddenScopeHint: hint, tenantPaths: tenants)
  }
}
