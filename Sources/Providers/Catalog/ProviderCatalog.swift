import AuthCore
import Foundation
import Spelling

/// Every provider authtui knows: the built-in presets, overlaid and extended by the user's
/// `providers/*.json` files.
///
/// Loading never fails as a whole: a file that cannot be read is skipped and reported in
/// `skippedFiles`, and a provider that loads but cannot be used (no `client_id`, a flow without
/// its endpoints) stays listed with its `problems`, so `authtui providers` can say what to fix.
public struct ProviderCatalog: Sendable {
  /// The providers, sorted by id: the one order every list of providers uses (`authtui
  /// providers`, the UI's provider list, the shell completion of provider names).
  public let entries: [ProviderEntry]
  /// Files that could not be read at all, each problem with its file and line.
  public let skippedFiles: [ProviderProblem]
  /// Every provider id there is, read or not: the presets', the entries' and, for files this
  /// catalog did not read, their names. For suggestions ("did you mean …?").
  public let knownIDs: [ProviderID]
  /// The problems of each skipped file whose name is a provider id, by that id.
  private let skippedByID: [ProviderID: [ProviderProblem]]

  /// The entry with this id.
  public func entry(_ id: ProviderID) -> ProviderEntry? {
    entries.first { $0.id == id }
  }

  /// Why the file of provider `id` (`providers/ID.json`) was skipped; empty when it was read
  /// or there is none. A provider whose own file is broken is reported with that file's
  /// problems rather than as missing or as the bare preset.
  public func skippedProblems(for id: ProviderID) -> [ProviderProblem] {
    skippedByID[id] ?? []
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

  /// Loads the presets and every user provider file from `location`, for the commands that show
  /// all providers (`providers`, `list`, the UI).
  ///
  /// `defaultLoginTimeout` (from `config.json`) applies to providers that set none.
  public static func load(
    from location: ConfigurationLocation, defaultLoginTimeout: TimeInterval? = nil
  ) -> ProviderCatalog {
    load(from: location, providers: .all, defaultLoginTimeout: defaultLoginTimeout)
  }

  /// Loads the providers `selection` names: with `.only`, just `providers/ID.json` of each id
  /// (and the preset it builds on), so a broken or hostile file of another provider costs a
  /// command nothing. The other providers' ids are still known, from the file names, for
  /// "did you mean" suggestions.
  public static func load(
    from location: ConfigurationLocation, providers selection: ProviderSelection,
    defaultLoginTimeout: TimeInterval? = nil
  ) -> ProviderCatalog {
    let fileNames = providerFileNames(in: location.providersDirectory)
    let wanted: [String]
    switch selection {
    case .all: wanted = fileNames
    case .only(let ids):
      // A ProviderID can always be a file name: it is never a path.
      let present = Set(fileNames)
      wanted = ids.map { "\($0).json" }.filter(present.contains).sorted()
    }
    var skipped: [ProviderProblem] = []
    var skippedByID: [ProviderID: [ProviderProblem]] = [:]
    var userFiles: [UserFile] = []
    for name in wanted {
      let url = location.providersDirectory.appendingPathComponent(name)
      switch readUserFile(url) {
      case .failure(let list):
        skipped += list.problems
        // A file whose name is not an id is reported, but no id can ask for it.
        if let id = try? ProviderID(String(name.dropLast(".json".count))) {
          skippedByID[id, default: []] += list.problems
        }
      case .success(let user): userFiles.append(user)
      }
    }

    var entries: [ProviderEntry] = []
    let overridden = Set(userFiles.compactMap(\.file.id))
    for (name, preset) in presets.sorted(by: { $0.key < $1.key }) {
      // A preset without an id is a template (oidc, rfc8628), used only through "preset".
      guard let id = preset.id, !overridden.contains(id), selection.includes(id) else { continue }
      let editFile = location.providersDirectory.appendingPathComponent("\(id).json")
      entries.append(
        makeEntry(
          preset, id: id, origin: .preset, shownFile: "built-in preset \(name)",
          editFile: ConfigurationLocation.display(editFile),
          defaultLoginTimeout: defaultLoginTimeout))
    }
    for user in userFiles {
      let merged = user.base.flatMap { presets[$0] }.map { user.file.overriding($0) } ?? user.file
      let origin: ProviderEntry.Origin =
        user.base.map { .fileOverPreset(file: user.path, preset: $0) } ?? .file(user.path)
      entries.append(
        makeEntry(
          merged, id: user.id, origin: origin, shownFile: user.path, editFile: user.path,
          defaultLoginTimeout: defaultLoginTimeout))
    }
    let stems = fileNames.compactMap { try? ProviderID(String($0.dropLast(".json".count))) }
    let presetIDs = presets.values.compactMap(\.id)
    return ProviderCatalog(
      entries: entries.sorted { $0.id < $1.id }, skippedFiles: skipped,
      knownIDs: Set(stems + presetIDs + entries.map(\.id)).sorted(), skippedByID: skippedByID)
  }

  /// A user file as read: the file, its path as shown, and the preset it builds on.
  private typealias UserFile = (file: ProviderFile, id: ProviderID, path: String, base: String?)

  /// Reads and checks one user file: its id is its file name (`providers/ID.json`), so a
  /// command that needs one provider reads one file.
  private static func readUserFile(_ url: URL) -> Result<UserFile, ProblemList> {
    let shown = ConfigurationLocation.display(url)
    func refuse(_ field: String?, _ message: String) -> Result<UserFile, ProblemList> {
      .failure(ProblemList([problem(shown, field, message)]))
    }
    guard let stem = try? ProviderID(url.deletingPathExtension().lastPathComponent) else {
      return refuse(
        nil,
        "the file name is not a provider id; rename it to ID.json, where ID is lowercase "
          + "letters, digits and '-' (the id in PROVIDER/LABEL)")
    }
    let text: String
    do {
      text = try ConfigurationFile.read(url)
    } catch {
      return refuse(nil, error.description)
    }
    var file: ProviderFile
    switch ProviderFile.decode(text, file: shown) {
    case .failure(let list): return .failure(list)
    case .success(let decoded): file = decoded
    }
    if let id = file.id, id != stem {
      return refuse(
        "id",
        "\(MessageQuoting.quoted(id.rawValue)) is not the file's name; a provider's file is named after "
          + "its id: rename the file to \(id).json, or remove \"id\"")
    }
    file.id = stem
    // A file whose id is a preset's builds on that preset without saying so.
    let base = file.preset ?? (presets[stem.rawValue]?.id == stem ? stem.rawValue : nil)
    if let base, presets[base] == nil {
      let names = presets.keys.sorted().joined(separator: ", ")
      return refuse(
        "preset", "there is no preset \(MessageQuoting.quoted(base)); use one of \(names)")
    }
    return .success((file, stem, shown, base))
  }

  /// The `*.json` names in `providers/`, sorted; listing them reads no file.
  private static func providerFileNames(in directory: URL) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
  }

  private static func problem(_ file: String, _ field: String?, _ message: String)
    -> ProviderProblem
  {
    ProviderProblem(file: file, position: nil, field: field, message: message)
  }

  /// Checks a merged file for what a sign-in needs and builds its configuration.
  static func makeEntry(
    _ merged: ProviderFile, id: ProviderID, origin: ProviderEntry.Origin, shownFile: String,
    editFile: String, defaultLoginTimeout: TimeInterval?
  ) -> ProviderEntry {
    var problems: [ProviderProblem] = []
    let (file, unresolved, issuerTemplate) = merged.fillingFields()
    if let fields = merged.idTokenIssuerFields, let field = fields.keys.first, issuerTemplate == nil
    {
      problems.append(
        problem(
          shownFile, "id_token_issuer_fields",
          "\"issuer\" has no {\(field)} for the id_token's claim to fill; write the issuer with "
            + "{\(field)} where the tenant goes, or remove id_token_issuer_fields"))
    }
    for name in unresolved {
      problems.append(
        problem(
          shownFile, "fields",
          "{\(name)} is used but has no value; add \"fields\": {\"\(name)\": \"…\"} to \(editFile)"
        ))
    }
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
    if file.clientSecret != nil && file.clientSecretRequired != true {
      problems.append(
        problem(
          shownFile, "client_secret",
          "provider \(id) takes no client secret: authtui signs in as a public "
            + "client; remove \"client_secret\" from \(editFile) (only a preset that declares "
            + "\"client_secret_required\", such as google, accepts one)"))
    } else if file.clientSecretRequired == true && file.clientSecret == nil
      && file.clientID != nil
    {
      problems.append(
        problem(
          shownFile, "client_secret",
          "\(file.name ?? id.rawValue) wants the client secret of your installed (Desktop) "
            + "application at its token endpoint; add \"client_secret\": \"…\" from the "
            + "application's credentials to \(editFile)"))
    }
    let configuration =
      problems.isEmpty
      ? makeConfiguration(
        file, flows: flows, defaultLoginTimeout: defaultLoginTimeout,
        issuerTemplate: issuerTemplate.flatMap(IssuerTemplate.init)) : nil
    var entry = ProviderEntry(
      id: id, name: file.name ?? id.rawValue, origin: origin, flows: flows, file: file,
      configuration: configuration, problems: problems, editFile: editFile)
    entry.issuerTemplate = issuerTemplate.flatMap(IssuerTemplate.init)
    return entry
  }

  static func missingClientIDMessage(_ file: ProviderFile, editFile: String) -> String {
    // A preset's file is written by `providers add ID --client-id` as well as by hand.
    let add =
      file.id.map { presets[$0.rawValue]?.id == $0 } == true
      ? "run `authtui providers add \(file.id?.rawValue ?? "") --client-id ID"
        + (file.clientSecretRequired == true ? " --client-secret-file PATH" : "")
        + "` (or add \"client_id\": \"…\" to \(editFile))"
      : "add \"client_id\": \"…\" to \(editFile)"
    guard let url = file.registrationURL else {
      return "no client_id: ask the provider for a public (PKCE) client id, then \(add)"
    }
    let note = file.registrationNote.map { " (\($0))" } ?? ""
    return "no client_id: register an application at \(url)\(note), then \(add)"
  }

  static func derivedFlows(_ file: ProviderFile) -> [SignInFlow] {
    var flows: [SignInFlow] = []
    if file.endpoints[.authorization] != nil || file.issuer != nil { flows.append(.pkce) }
    if file.endpoints[.deviceAuthorization] != nil { flows.append(.device) }
    if file.endpoints[.pin] != nil { flows.append(.pin) }
    return flows
  }

  static func makeConfiguration(
    _ file: ProviderFile, flows: [SignInFlow], defaultLoginTimeout: TimeInterval?,
    issuerTemplate: IssuerTemplate? = nil
  ) -> ProviderConfiguration? {
    // The placeholders, `{client_id}` and `{version}` among them, are filled already
    // (`fillingFields`).
    guard let id = file.id, let clientID = file.clientID else { return nil }
    var configuration = ProviderConfiguration(
      id: id, name: file.name, issuer: file.issuer, clientID: clientID, flows: flows,
      scopes: file.scopes ?? [], redirectPort: file.redirectPort,
      redirectPath: file.redirectPath ?? "/callback",
      tokenRequestEncoding: file.tokenRequestEncoding ?? .form,
      loginTimeout: file.loginTimeout ?? defaultLoginTimeout ?? 300,
      extraAuthorizeParameters: file.extraAuthorizeParameters ?? [:],
      extraRequestParameters: file.extraRequestParameters ?? [:],
      extraRequestParametersLocation: file.extraRequestParametersLocation ?? .body,
      userAgent: file.userAgent,
      requiresIssuerInAuthorizationResponse: file.issuerInAuthorizationResponse ?? false,
      usesDiscovery: file.usesDiscovery ?? true, postLogoutRedirectURI: file.postLogoutRedirectURI,
      identity: file.identity,
      clientSecret: file.clientSecretRequired == true ? file.clientSecret : nil,
      issuerTemplate: issuerTemplate, errorAliases: file.errorAliases ?? [:])
    for (endpoint, url) in file.endpoints { configuration[keyPath: endpoint.keyPath] = url }
    configuration.refreshRequiresClientSecret = file.refreshRequiresClientSecret ?? false
    configuration.refreshTokenLifetime = file.refreshTokenLifetime.flatMap {
      $0 > 0 ? TimeInterval($0) : nil
    }
    configuration.postLogoutUsesRedirectURI = file.postLogoutUsesRedirectURI ?? false
    configuration.scopeSeparator = file.scopeSeparator
    configuration.pushedAuthorization = file.pushedAuthorization ?? .auto
    configuration.dpop = file.dpop ?? .auto
    return configuration
  }
}

/// Which providers a catalog reads from the configuration folder.
public enum ProviderSelection: Sendable, Equatable {
  /// Every file in `providers/`, for commands that show every provider.
  case all
  /// Only the providers with these ids: `providers/ID.json` for each (and the preset it builds
  /// on), for commands that use one provider.
  case only(Set<ProviderID>)

  /// True when the provider `id` is selected.
  public func includes(_ id: ProviderID) -> Bool {
    switch self {
    case .all: return true
    case .only(let ids): return ids.contains(id)
    }
  }
}
