import AuthCore
import Foundation
import JSON
import Providers

/// `authtui providers [--json]`: every provider authtui knows, whether it is ready to use, and
/// what to fix when it is not.
enum ProvidersCommand {
  static let spec = CommandSpec(
    name: "providers", usage: "providers [--json]",
    summary: "List the providers you can sign in to, and what each still needs.",
    details: """
      Built-in presets (simkl, hivesigner, muhajir) are listed even before you configure them;
      a provider needs your own client_id, set in a file under the configuration folder's
      providers/ (for example ~/.config/authtui/providers/simkl.json: {"client_id": "…"}).
      Files that cannot be read are reported on standard error with their line and the fix.
      The interactive UI (`authtui`) writes that file for you when you choose such a provider,
      and `authtui demo` tries every provider and flow against a built-in sandbox first, with
      nothing to register. Below the table, each provider's registration: where to register
      an application, its type, the redirect URI to register (a fixed port, or any port) and
      the scopes.
      """,
    arguments: [], requiredArguments: 0, options: [jsonFlag])

  static let jsonFlag = OptionSpec.flag(
    "json",
    "print a JSON array (id, name, flows, client_id_configured, usable, source, problems, "
      + "registration)")

  /// What `providers` was asked.
  typealias Options = ListingOptions

  static func run(_ options: Options, console: Console) -> ExitCode {
    let location = ConfigurationLocation.resolve(explicitPath: options.global.config)
    let (settings, settingsProblems) = UserSettings.load(from: location)
    let catalog = ProviderCatalog.load(from: location, defaultLoginTimeout: settings.loginTimeout)
    for problem in settingsProblems + catalog.skippedFiles {
      console.err("authtui: \(problem)")
    }
    if options.json {
      console.out(json(catalog))
    } else {
      console.out(table(catalog))
    }
    return .ok
  }

  struct Row {
    let id: ProviderID
    let name: String
    let flows: [String]
    let clientIDConfigured: Bool
    let usable: Bool
    let source: String
    let problems: [String]
    let registration: RegistrationGuide

    /// The row's object, members sorted by name (as `--json` has always printed them).
    var json: OrderedJSON {
      [
        "client_id_configured": .bool(clientIDConfigured),
        "flows": .array(flows.map(OrderedJSON.string)), "id": .string(id.rawValue),
        "name": .string(name),
        "problems": .array(problems.map(OrderedJSON.string)),
        "registration": [
          "application_type": registration.applicationType.map(OrderedJSON.string) ?? .null,
          "note": registration.note.map(OrderedJSON.string) ?? .null,
          "post_logout_redirect_uri": registration.postLogoutRedirectURI.map(OrderedJSON.string)
            ?? .null,
          "redirect_any_port": .bool(registration.anyPort),
          "redirect_uri": registration.redirectURI.map(OrderedJSON.string) ?? .null,
          "scopes": .array(registration.scopes.map(OrderedJSON.string)),
          "url": registration.registrationURL.map(OrderedJSON.string) ?? .null,
        ],
        "source": .string(source), "usable": .bool(usable),
      ]
    }
  }

  static func rows(_ catalog: ProviderCatalog) -> [Row] {
    catalog.entries.map { entry in
      Row(
        id: entry.id, name: entry.name, flows: entry.flows.map(\.rawValue),
        clientIDConfigured: entry.hasClientID, usable: entry.configuration != nil,
        source: entry.origin.label, problems: entry.problems.map(\.description),
        registration: entry.registration)
    }
  }

  static func json(_ catalog: ProviderCatalog) -> String {
    OrderedJSON.array(rows(catalog).map(\.json)).text
  }

  static func table(_ catalog: ProviderCatalog) -> String {
    let rows = rows(catalog)
    let header = ["ID", "NAME", "FLOWS", "CLIENT ID", "SOURCE"]
    let cells = rows.map { row in
      [
        row.id.rawValue, row.name, row.flows.joined(separator: ", "),
        row.clientIDConfigured ? "set" : "missing", row.source,
      ]
    }
    var lines = [TextTable.render(header: header, rows: cells)]
    lines += ["", "To register an application for a client id of your own:"]
    let idWidth = rows.map(\.id.rawValue.count).max() ?? 0
    for row in rows {
      let id = row.id.rawValue
      let guide = row.registration
      let place = guide.registrationURL.map { "at " + $0 } ?? "ask the provider for a client id"
      let indent = String(repeating: " ", count: 2 + idWidth + 2)
      lines.append("  " + id + String(repeating: " ", count: idWidth - id.count) + "  " + place)
      lines += guide.facts.map { indent + $0.label + ": " + $0.value }
      if let note = guide.note { lines.append(indent + "note: " + note) }
    }
    let problems = rows.flatMap(\.problems)
    if !problems.isEmpty {
      lines += ["", "To fix:"] + problems.map { "  " + $0 }
    }
    if rows.contains(where: { !$0.clientIDConfigured }) {
      lines += [
        "",
        "No client id yet? `authtui` asks for it when you choose the provider; "
          + "`authtui demo` tries every flow first, with nothing to register.",
      ]
    }
    return lines.joined(separator: "\n")
  }
}
