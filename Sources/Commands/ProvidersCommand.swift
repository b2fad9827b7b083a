import AuthCore
import Foundation
import JSON
import Providers

/// `authtui providers [--json]`: every provider authtui knows, one line each with where it
/// stands and the one next step; its actions add (`add`), describe (`show`) and remove
/// (`remove`) one.
struct ProvidersCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "providers",
    summary: "List the providers you can sign in to, one line each (add, show, remove one).",
    details: """
      One line per provider: its id and name, where it stands (ready, no client id, no client
      secret, needs a fix) and the one next step: `authtui login ID`, or `authtui providers
      show ID`, which says what it needs (where to register and what, or what to fix in its
      file) and what its server offers. The built-in presets (github, gitlab, google,
      hivesigner, microsoft, muhajir, simkl) are listed before you configure them: each needs
      your own client_id, which the interactive UI asks for when you choose it. Files that
      cannot be read are reported on standard error with their line and the fix. `authtui
      demo` tries every provider and flow against a built-in sandbox, with nothing to register.
      """,
    options: [
      .flag(
        "json", \.json,
        help:
          "print a JSON array (id, name, flows, state, next_step, client_id_configured, usable, "
          + "source, problems, registration)")
    ],
    actions: [ProvidersAddCommand.self, ProvidersShowCommand.self, ProvidersRemoveCommand.self])

  var global = GlobalOptions()
  /// `--json`: a JSON array instead of a table.
  var json = false

  /// What `providers` was asked.
  func run(console: Console) async -> ExitCode {
    let catalog = AccountAccess.catalog(global, console: console, reportProblems: true)
    if json {
      console.out(Self.json(catalog))
    } else {
      console.out(Self.table(catalog))
    }
    return .ok
  }

  /// The one next step for a provider in `state`, as a command to run.
  static func nextStep(_ entry: ProviderEntry) -> String {
    switch entry.state {
    case .ready: return "authtui login \(entry.id)"
    case .noClientID, .noClientSecret, .needsFix: return "authtui providers show \(entry.id)"
    }
  }

  static func row(_ entry: ProviderEntry) -> OrderedJSON {
    let registration = entry.registration
    return [
      "client_id_configured": .bool(entry.hasClientID),
      "flows": .array(entry.flows.map { .string($0.rawValue) }), "id": .string(entry.id.rawValue),
      "name": .string(entry.name), "next_step": .string(nextStep(entry)),
      "problems": .array(entry.problems.map { .string($0.description) }),
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
      "source": .string(entry.origin.label), "state": .string(entry.state.rawValue),
      "usable": .bool(entry.configuration != nil),
    ]
  }

  static func json(_ catalog: ProviderCatalog) -> String {
    OrderedJSON.array(catalog.entries.map(row)).text
  }

  /// One line per provider, in the catalog's order (the one every list uses), then one line
  /// of where to go next.
  static func table(_ catalog: ProviderCatalog) -> String {
    let rows = catalog.entries.map { entry in
      [entry.id.rawValue, entry.name, entry.state.words, nextStep(entry)]
    }
    let table = TextTable.render(header: ["ID", "NAME", "STATE", "NEXT STEP"], rows: rows)
    return table + "\n\n"
      + "Your own provider, from its issuer URL: `authtui providers add ID --issuer URL`.\n"
      + "Every flow, with nothing to register: `authtui demo`."
  }
}
