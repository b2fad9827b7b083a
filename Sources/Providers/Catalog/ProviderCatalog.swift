import AuthCore
import Foundation

/// Every provider authtui knows: the built-in presets, overlaid and extended by the user's
/// `providers/*.json` files.
///
/// Loading never fails as a whole: a file that cannot be read is skipped and reported in
/// `skippedFiles`, and a provider that loads but cannot be used (no `client_id`, a flow without
/// its endpoints) stays listed with its `problems`, so `authtui providers` can say what to fix.
public struct ProviderCatalog: Sendable {
  /// The providers, sorted by id.
  public let entries: [ProviderEntry]
  /// Files that could not be read at all, each problem with its file and line.
  public let skippedFiles: [ProviderProblem]

  /// The entry with this id.
  public func entry(_ id: String) -> ProviderEntry? {
    entries.first { $0.id == id }
  }

  /// Every problem: skipped files first, then each provider's.
  public var allProblems: [ProviderProblem] {
    skippedFiles + entries.flatMap(\.problems)
  }

  /// The built-in presets and templates, by name (file name without `.json`).
  public static let presets: [String: ProviderFile] = {
    var presets: [String: ProviderFile] = [:]
    for (name, contents) in BuiltInPresetFiles.all {
      // The presets are checked by the test suite; a broken one is left out rather than
      // taking every other provider down with it.
      if case .success(let file) = ProviderFile.decode(contents, file: "built-in preset \(name)") {
        presets[name] = file
      }
    }
    return presets
  }()

  /// Loads the presets and the user's provider files from `location`.
  ///
  /// `defaultLoginTimeout` (from `config.json`) applies to providers that set none.
  public static func load(
    from location: ConfigurationLocation, defaultLoginTimeout: TimeInterval? = nil
  ) -> ProviderCatalog {
    var skipped: [ProviderProblem] = []
    var userFiles: [(file: ProviderFile, path: String, base: String?)] = []
    for url in providerFileURLs(in: location.providersDirectory) {
      let shown = ConfigurationLocation.display(url)
      guard let data = FileManager.default.contents(atPath: url.path) else {
        skipped.append(problem(shown, nil, "cannot be read; check its permissions"))
        continue
      }
      guard let text = String(data: data, encoding: .utf8) else {
        skipped.append(problem(shown, nil, "is not UTF-8 text; save it as UTF-8"))
        continue
      }
      switch ProviderFile.decode(text, file: shown) {
      case .failure(let list):
        skipped += list.problems
      case .success(var file):
        if file.id == nil {
          let stem = url.deletingPathExtension().lastPathComponent
          guard ProviderID.isValid(stem) else {
            skipped.append(
              problem(
                shown, nil,
                "has no \"id\" and its file name is not a valid id; add \"id\": \"name\" "
                  + "(lowercase letters, digits and '-')"))
            continue
          }
          file.id = stem
        }
        // A file whose id is a preset's builds on that preset without saying so.
        let base = file.preset ?? file.id.flatMap { presets[$0]?.id == $0 ? $0 : nil }
        if let base, presets[base] == nil {
          let names = presets.keys.sorted().joined(separator: ", ")
          skipped.append(
            ProviderProblem(
              file: shown, position: nil, field: "preset",
              message: "there is no preset \"\(base)\"; use one of \(names)"))
          continue
        }
        if let earlier = userFiles.first(where: { $0.file.id == file.id }) {
          skipped.append(
            problem(
              shown, nil,
              "defines the provider \"\(file.id ?? "")\" again (already in \(earlier.path)); "
                + "give it another \"id\" or remove one of the files"))
          continue
        }
        userFiles.append((file, shown, base))
      }
    }

    var entries: [ProviderEntry] = []
    let overridden = Set(userFiles.compactMap(\.file.id))
    for (name, preset) in presets.sorted(by: { $0.key < $1.key }) {
      // A preset without an id is a template (oidc, rfc8628), used only through "preset".
      guard let id = preset.id, !overridden.contains(id) else { continue }
      let editFile = location.providersDirectory.appendingPathComponent("\(id).json")
      entries.append(
        makeEntry(
          preset, origin: .preset, shownFile: "built-in preset \(name)",
          editFile: ConfigurationLocation.display(editFile),
          defaultLoginTimeout: defaultLoginTimeout))
    }
    for user in userFiles {
      let merged = user.base.flatMap { presets[$0] }.map { user.file.overriding($0) } ?? user.file
      let origin: ProviderEntry.Origin =
        user.base.map { .fileOverPreset(file: user.path, preset: $0) } ?? .file(user.path)
      entries.append(
        makeEntry(
          merged, origin: origin, shownFile: user.path, editFile: user.path,
          defaultLoginTimeout: defaultLoginTimeout))
    }
    return ProviderCatalog(entries: entries.sorted { $0.id < $1.id }, skippedFiles: skipped)
  }

  private static func providerFileURLs(in directory: URL) -> [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().map {
      directory.appendingPathComponent($0)
    }
  }

  private static func problem(_ file: String, _ field: String?, _ message: String)
    -> ProviderProblem
  {
    ProviderProblem(file: file, position: nil, field: field, message: message)
  }

  /// Checks a merged file for what a sign-in needs and builds its configuration.
  static func makeEntry(
    _ file: ProviderFile, origin: ProviderEntry.Origin, shownFile: String, editFile: String,
    defaultLoginTimeout: TimeInterval?
  ) -> ProviderEntry {
    let id = file.id ?? ""
    var problems: [ProviderProblem] = []
    let flows = file.flows ?? derivedFlows(file)
    if flows.isEmpty {
      problems.append(
        problem(
          shownFile, "flows",
          "no way to sign in: add \"issuer\" (OpenID Connect discovery), or "
            + "\"authorization_endpoint\" and \"token_endpoint\", or \"device_authorization_endpoint\""
        ))
    }
    let discovers = file.issuer != nil && file.usesDiscovery != false
    for flow in flows where !flow.hasEndpoints(in: file) && (!discovers || flow == .pin) {
      problems.append(
        problem(
          shownFile, "flows",
          "the \"\(flow.rawValue)\" flow needs \(flow.requiredEndpointNames)"
            + (flow == .pin ? "" : " (or an \"issuer\" to discover them)")))
    }
    if file.clientID == nil {
      problems.append(
        problem(shownFile, "client_id", missingClientIDMessage(file, editFile: editFile)))
    }
    let configuration =
      problems.isEmpty
      ? makeConfiguration(file, flows: flows, defaultLoginTimeout: defaultLoginTimeout) : nil
    return ProviderEntry(
      id: id, name: file.name ?? id, origin: origin, flows: flows, file: file,
      configuration: configuration, problems: problems)
  }

  static func missingClientIDMessage(_ file: ProviderFile, editFile: String) -> String {
    let add = "add \"client_id\": \"…\" to \(editFile)"
    guard let url = file.registrationURL else {
      return "no client_id: ask the provider for a public (PKCE) client id, then \(add)"
    }
    let note = file.registrationNote.map { " (\($0))" } ?? ""
    return "no client_id: register an application at \(url)\(note), then \(add)"
  }

  static func derivedFlows(_ file: ProviderFile) -> [SignInFlow] {
    var flows: [SignInFlow] = []
    if file.authorizationEndpoint != nil || file.issuer != nil { flows.append(.pkce) }
    if file.deviceAuthorizationEndpoint != nil { flows.append(.device) }
    if file.pinEndpoint != nil { flows.append(.pin) }
    return flows
  }

  static func makeConfiguration(
    _ file: ProviderFile, flows: [SignInFlow], defaultLoginTimeout: TimeInterval?
  ) -> ProviderConfiguration? {
    guard let id = file.id, let clientID = file.clientID else { return nil }
    func substitute(_ text: String) -> String {
      text.replacingOccurrences(of: "{client_id}", with: clientID)
        .replacingOccurrences(of: "{version}", with: AuthTUIVersion.current)
    }
    return ProviderConfiguration(
      id: id, name: file.name, issuer: file.issuer, clientID: clientID, flows: flows,
      scopes: file.scopes ?? [], authorizationEndpoint: file.authorizationEndpoint,
      tokenEndpoint: file.tokenEndpoint,
      deviceAuthorizationEndpoint: file.deviceAuthorizationEndpoint,
      revocationEndpoint: file.revocationEndpoint, userinfoEndpoint: file.userinfoEndpoint,
      endSessionEndpoint: file.endSessionEndpoint, jwksURI: file.jwksURI,
      pinEndpoint: file.pinEndpoint, redirectPort: file.redirectPort,
      redirectPath: file.redirectPath ?? "/callback",
      tokenRequestEncoding: file.tokenRequestEncoding ?? .form,
      loginTimeout: file.loginTimeout ?? defaultLoginTimeout ?? 300,
      extraAuthorizeParameters: (file.extraAuthorizeParameters ?? [:]).mapValues(substitute),
      extraRequestParameters: (file.extraRequestParameters ?? [:]).mapValues(substitute),
      extraRequestParametersLocation: file.extraRequestParametersLocation ?? .body,
      userAgent: file.userAgent.map(substitute),
      requiresIssuerInAuthorizationResponse: file.issuerInAuthorizationResponse ?? false,
      usesDiscovery: file.usesDiscovery ?? true, postLogoutRedirectURI: file.postLogoutRedirectURI,
      identity: file.identity)
  }
}
