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
      nothing to register.
      """,
    arguments: [], requiredArguments: 0, options: [jsonFlag])

  static let jsonFlag = OptionSpec.flag(
    "json", "print a JSON array (id, name, flows, client_id_configured, usable, source, problems)")

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

    /// The row's object, members sorted by name (as `--json` has always printed them).
    var json: OrderedJSON {
      [
        "client_id_configured": .bool(clientIDConfigured),
        "flows": .array(flows.map(OrderedJSON.string)), "id": .string(id.rawValue),
        "name": .string(name),
        "problems": .array(problems.map(OrderedJSON.string)), "source": .string(source),
        "usable": .bool(usable),
      ]
    }
  }

  static func rows(_ catalog: ProviderCatalog) -> [Row] {
    catalog.entries.map { entry in
      Row(
        id: entry.id, name: entry.name, flows: entry.flows.map(\.rawValue),
        clientIDConfigured: entry.hasClientID, usable: entry.configuration != nil,
        source: entry.origin.label, problems: entry.problems.map(\.description))
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
    let widths = header.indices.map { column in
      ([header[column]] + cells.map { $0[column] }).map(\.count).max() ?? 0
    }
    func line(_ values: [String]) -> String {
      zip(values, widths).map { value, width in
        value + String(repeating: " ", count: width - value.count)
      }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
    }
    var lines = [line(header)] + cells.map(line)
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
