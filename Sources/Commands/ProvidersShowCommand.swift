import AuthCore
import Foundation
import Providers
import Spelling

/// `authtui providers show ID`: one provider in full: where it stands, its file, its client,
/// where to register and what, what to fix, its endpoints, and what its server publishes.
struct ProvidersShowCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "show",
    summary: "Show one provider: its state, file, registration, endpoints and what it offers.",
    details: """
      For a provider without a client id: where to register an application and what to
      register (its type, the redirect URI, the scopes, the provider's note). For one with an
      issuer: what its OpenID discovery document and RFC 8414 metadata offer, fetched now
      (a failure is said and changes nothing). Secrets are never shown.
      """,
    arguments: [.required("ID", \.text, .text)])

  var global = GlobalOptions()
  /// The provider's id as typed: one that is no id is no such provider (exit 4).
  var text = ""

  func run(console: Console) async -> ExitCode {
    let catalog = AccountAccess.catalog(global, console: console, reportProblems: true)
    if let id = try? ProviderID(text), !catalog.skippedProblems(for: id).isEmpty {
      // Its file's problems were said above; it is not missing, and no "did you mean" itself.
      console.err(
        "authtui: the provider \(id) cannot be shown while its file has the "
          + (catalog.skippedProblems(for: id).count == 1 ? "problem" : "problems")
          + " above; fix the file, then run `authtui providers show \(id)` again")
      return .failure
    }
    guard let id = try? ProviderID(text), let entry = catalog.entry(id) else {
      let suggestions = SpellingSuggestion.close(
        to: text, among: catalog.knownIDs.map(\.rawValue))
      console.err(AccountAccess.failure(.noSuchProvider(text, suggestions: suggestions)).line)
      return .notFound
    }
    console.out(Self.describe(entry))
    if let issuer = entry.file.issuer, entry.file.usesDiscovery != false {
      console.out(await Self.discovered(issuer, template: entry.issuerTemplate))
    }
    return .ok
  }

  /// Everything the catalog knows of `entry`, as lines.
  static func describe(_ entry: ProviderEntry) -> String {
    let file = entry.file
    let source: String
    switch entry.origin {
    case .preset: source = "built-in preset; settings of yours go in \(entry.editFile)"
    case .file, .fileOverPreset: source = entry.origin.label
    }
    var facts: [(String, String)] = [
      ("state", entry.state.words), ("file", source),
      ("flows", entry.flows.map(\.rawValue).joined(separator: ", ")),
    ]
    if let issuer = file.issuer {
      let discovery = file.usesDiscovery == false ? " (discovery off)" : ""
      facts.append(("issuer", issuer + discovery))
    }
    var client = file.clientID ?? "none yet"
    if file.clientID != nil, file.registrationClientURI != nil {
      client += " (registered by authtui; `authtui providers remove \(entry.id)` deletes it)"
    }
    facts.append(("client id", client))
    if file.clientSecret != nil { facts.append(("client secret", "set (not shown)")) }
    let scopes = file.scopes ?? []
    facts.append(("scopes", scopes.isEmpty ? "none asked for" : scopes.joined(separator: " ")))
    if let port = file.redirectPort, file.clientID != nil {
      facts.append(("redirect URI", "http://127.0.0.1:\(port)\(file.redirectPath ?? "/callback")"))
    }
    var lines = ["\(entry.id): \(entry.name)"] + aligned(facts)
    if entry.state == .noClientID || entry.state == .noClientSecret {
      lines += [""] + Self.registrationLines(entry.registration)
      lines.append(
        ProviderCatalog.presets[entry.id.rawValue]?.id == entry.id
          ? "Then `authtui providers add \(entry.id) --client-id ID"
            + (file.clientSecretRequired == true ? " --client-secret-file PATH" : "")
            + "`, or choose \(entry.id) in `authtui`, which asks for it."
          : "Then add \"client_id\": \"…\" to \(entry.editFile), or choose \(entry.id) in "
            + "`authtui`, which asks for it.")
    }
    let fixes = entry.state == .needsFix ? entry.problems.map(\.description) : []
    if !fixes.isEmpty {
      lines += ["", "To fix:"] + fixes.map { "  " + $0 }
    }
    let endpoints = ProviderEndpoint.allCases.compactMap { endpoint in
      file.endpoints[endpoint].map { (endpoint.rawValue, $0.absoluteString) }
    }
    if !endpoints.isEmpty {
      lines += ["", "Endpoints set in the file or preset:"] + aligned(endpoints)
    }
    return lines.joined(separator: "\n")
  }

  /// What the issuer publishes now, or why that could not be read.
  static func discovered(_ issuer: String, template: IssuerTemplate?) async -> String {
    do {
      let metadata = try await OIDCProvider.discover(
        issuer: issuer, template: template, transport: URLSessionTransport(),
        requestTimeout: ProvidersAddCommand.requestTimeout)
      return "\n" + ProvidersAddCommand.summary(IssuerSummary(metadata))
    } catch {
      return "\nDiscovery of \(issuer) failed: \(error.message)"
    }
  }

  /// `label: value` lines, the values in one column.
  private static func aligned(_ facts: [(String, String)]) -> [String] {
    let width = (facts.map(\.0.count).max() ?? 0) + 2
    return facts.map {
      "  " + ($0.0 + ":").padding(toLength: width, withPad: " ", startingAt: 0) + $0.1
    }
  }

  /// Where to register an application for a client id and what to register there, a line
  /// each (`providers show`, and `login` before it asks for the client id).
  static func registrationLines(_ guide: RegistrationGuide) -> [String] {
    let place = guide.registrationURL.map { " at \($0)" } ?? ""
    return ["To get a client id, register an application\(place):"]
      + guide.facts.map { "  \($0.label): \($0.value)" }
      + (guide.note.map { ["  note: \($0)"] } ?? [])
  }
}
