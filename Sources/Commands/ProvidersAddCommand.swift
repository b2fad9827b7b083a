import AuthCore
import Foundation
import JSON
import Providers

/// `authtui providers add ID --issuer URL [--client-id ID] [--client-secret-file PATH]
/// [--name NAME] [--flow pkce|device]… [--replace] [--json]`: a provider of one's own from its
/// issuer URL, registered with the server when it allows it (RFC 7591).
enum ProvidersAddCommand {
  static let spec = CommandSpec(
    name: "providers add",
    usage:
      "providers add ID --issuer URL [--client-id ID] [--client-secret-file PATH] [--name NAME] "
      + "[--flow pkce|device]… [--replace] [--json]",
    summary: "Add your own provider from its issuer URL, registering authtui when it allows it.",
    details: """
      Reads the server's OpenID Connect discovery document and its RFC 8414 metadata (both
      /.well-known/oauth-authorization-server forms), says what it offers, and writes
      providers/ID.json (the folder made 0700 if missing, the file 0600, atomically, never
      through a link) with the issuer, the client id, the flows and the scopes: every sign-in
      discovers the endpoints afresh. Without --client-id, authtui registers itself where the
      server allows it (RFC 7591) as a native public client with a fixed loopback redirect
      URI, and keeps what the server issued for managing the registration (never printed)
      in the file, so that `providers remove` deletes it too (RFC 7592); otherwise it writes
      the file without a client id and says what to ask the server's administrator for.
      --client-secret-file reads a client secret from the file's first line, for a server
      that wants one at its token endpoint. --flow (repeatable) keeps only those flows.
      Exit 2 for a usage error, 4 when ID exists (--replace overwrites its file) or is a
      built-in preset, 7 when the server cannot be reached, its metadata is unusable or it
      refuses the registration.
      """,
    arguments: ["ID"], requiredArguments: 1,
    options: [
      issuerOption, clientIDOption, secretFileOption, nameOption, flowOption, replaceFlag,
      jsonFlag,
    ]
  ).running { (invocation) throws(CommandFailure) in
    try Options(invocation)
  } _: {
    await run($0, console: $1)
  }

  static let issuerOption = OptionSpec.value(
    "issuer", "URL", "the server's issuer (https, or http on 127.0.0.1)")
  static let clientIDOption = OptionSpec.value(
    "client-id", "ID", "a client id you have already (no registration then)")
  static let secretFileOption = OptionSpec.value(
    "client-secret-file", "PATH", "a file whose first line is the client secret")
  static let nameOption = OptionSpec.value("name", "NAME", "the name to show")
  static let flowOption = OptionSpec.value(
    "flow", "pkce|device", "keep only this flow (repeat for both; default: all offered)")
  static let replaceFlag = OptionSpec.flag("replace", "overwrite providers/ID.json")
  static let jsonFlag = OptionSpec.flag(
    "json", "print one JSON object (id, file, issuer, client_id, registered, flows, offers)")

  /// What `providers add` was asked.
  struct Options: Sendable {
    var global: GlobalOptions
    var id: ProviderID
    var issuer: String
    var clientID: String?
    var clientSecret: ClientSecret?
    var name: String?
    var flows: [SignInFlow]
    var replace: Bool
    var json: Bool

    init(_ invocation: Invocation) throws(CommandFailure) {
      global = invocation.global
      let text = invocation.arguments[0]
      do {
        id = try ProviderID(text)
      } catch {
        throw CommandFailure(exitCode: .usage, message: error.description)
      }
      guard let issuer = invocation.value(issuerOption), !issuer.isEmpty else {
        throw CommandFailure(
          exitCode: .usage,
          message: "'providers add' needs --issuer URL, the server's issuer (for example "
            + "--issuer https://id.example.com/realms/work)")
      }
      self.issuer = issuer
      do {
        clientID = try invocation.value(clientIDOption).map { text throws(ProviderSetupError) in
          try ProviderSetup.checkedClientID(text)
        }
      } catch {
        throw CommandFailure(exitCode: .usage, message: "--client-id: \(error.description)")
      }
      clientSecret = try invocation.value(secretFileOption).map { path throws(CommandFailure) in
        try Self.secret(fromFile: path)
      }
      if clientSecret != nil && clientID == nil {
        throw CommandFailure(
          exitCode: .usage,
          message: "--client-secret-file goes with --client-id: a secret is issued with a "
            + "client id (authtui registers itself as a public client, with no secret)")
      }
      name = invocation.value(nameOption).flatMap { $0.isEmpty ? nil : $0 }
      var flows: [SignInFlow] = []
      for word in invocation.values(flowOption).flatMap({ $0.split(separator: ",") }) {
        guard let flow = SignInFlow(rawValue: String(word)), flow != .pin else {
          throw CommandFailure(
            exitCode: .usage, message: "--flow is pkce or device, not \"\(word)\"")
        }
        if !flows.contains(flow) { flows.append(flow) }
      }
      self.flows = flows
      replace = invocation.flag(replaceFlag)
      json = invocation.flag(jsonFlag)
    }

    /// The first line of the file at `path`, checked as a client secret.
    static func secret(fromFile path: String) throws(CommandFailure) -> ClientSecret {
      let text: String
      do {
        text = try ConfigurationFile.read(path: path)
      } catch {
        throw CommandFailure(exitCode: .usage, message: "--client-secret-file \(path) \(error)")
      }
      let line = String(text.prefix { $0 != "\n" && $0 != "\r\n" })
      do {
        return try ProviderSetup.checkedClientSecret(line)
      } catch {
        throw CommandFailure(
          exitCode: .usage,
          message: "--client-secret-file \(path): its first line must be the client secret; "
            + error.description)
      }
    }
  }

  /// How long each request to the server may take.
  static let requestTimeout: TimeInterval = 30

  static func run(_ options: Options, console: Console) async -> ExitCode {
    do throws(CommandFailure) {
      do {
        // Before any request: a registration that could not be saved would be left behind.
        try ProviderAddition.checkAvailable(
          options.id, in: AccountAccess.configuration(options.global), replacing: options.replace)
      } catch {
        throw failure(error)
      }
      let transport = URLSessionTransport()
      let metadata: OIDCProviderMetadata
      do {
        metadata = try await OIDCProvider.discover(
          issuer: options.issuer, transport: transport, requestTimeout: requestTimeout)
      } catch {
        throw discoveryFailure(error, issuer: options.issuer)
      }
      var addition: ProviderAddition
      do {
        addition = try ProviderAddition(
          id: options.id, issuer: options.issuer, metadata: metadata, name: options.name,
          clientID: options.clientID, clientSecret: options.clientSecret, flows: options.flows)
      } catch {
        throw failure(error)
      }
      if !options.json { console.out(summary(addition.summary)) }
      if addition.needsRegistration, let endpoint = metadata.registrationEndpoint {
        do {
          try await addition.register(
            at: endpoint, transport: transport, requestTimeout: requestTimeout)
        } catch .registration(let error) {
          throw registrationFailure(error, addition)
        } catch {
          throw failure(error)
        }
      }
      let file: URL
      do {
        file = try addition.save(
          in: AccountAccess.configuration(options.global), replacing: options.replace)
      } catch {
        throw failure(error)
      }
      let shown = ConfigurationLocation.display(file)
      if options.json {
        console.out(json(addition, file: shown))
      } else {
        console.out(outcome(addition, file: shown))
      }
      return .ok
    } catch {
      if options.json {
        console.out(
          OrderedJSON.object([
            ("error", .string(error.code)), ("message", .string(error.message)),
          ]).text)
      }
      console.err(error.line)
      return error.exitCode
    }
  }

  /// A registration that failed, with the command that adds the provider with a client id
  /// obtained another way.
  private static func registrationFailure(_ error: AuthError, _ addition: ProviderAddition)
    -> CommandFailure
  {
    let failure = AccountAccess.failure(.auth(error))
    guard case .registrationFailed = error else { return failure }
    return CommandFailure(
      exitCode: failure.exitCode,
      message: failure.message + " Then: `authtui providers add \(addition.id) --issuer "
        + "\(addition.issuer) --client-id ID`.", code: failure.code)
  }

  /// A discovery failure: the issuer itself is a usage error (2), the server's fault or the
  /// network's is 7.
  private static func discoveryFailure(_ error: AuthError, issuer: String) -> CommandFailure {
    if case .discoveryFailed(.invalidIssuer) = error {
      return CommandFailure(
        exitCode: .usage,
        message: "--issuer \(issuer) is not an https URL (http only on 127.0.0.1) without query "
          + "or fragment; give the server's issuer, for example https://id.example.com",
        code: error.code)
    }
    if case .discoveryFailed(.issuerMismatch(_, let received?)) = error {
      return CommandFailure(
        exitCode: .providerError,
        message: "the server at \(issuer) names its issuer \(received); give exactly that: "
          + "--issuer \(received)", code: error.code)
    }
    return CommandFailure(
      exitCode: .providerError,
      message: "\(issuer) could not be discovered: \(error.message)", code: error.code)
  }

  static func failure(_ error: ProviderAdditionError) -> CommandFailure {
    let exitCode: ExitCode
    switch error {
    case .presetID, .exists: exitCode = .notFound
    case .flowNotOffered: exitCode = .usage
    case .noUsableFlow: exitCode = .providerError
    case .file, .noRedirectPort: exitCode = .failure
    case .discovery(let error, let issuer): return discoveryFailure(error, issuer: issuer)
    case .registration(let error): return AccountAccess.failure(.auth(error))
    }
    return CommandFailure(exitCode: exitCode, message: error.description)
  }

  /// `Discovered ISSUER:` and the facts, one per line.
  static func summary(_ summary: IssuerSummary) -> String {
    let facts = summary.facts
    let width = (facts.map(\.label.count).max() ?? 0) + 2
    return
      (["Discovered \(summary.issuer):"]
      + facts.map {
        "  " + ($0.label + ":").padding(toLength: width, withPad: " ", startingAt: 0)
          + $0.value
      })
      .joined(separator: "\n")
  }

  /// What was written, and the next step.
  static func outcome(_ addition: ProviderAddition, file: String) -> String {
    var lines: [String] = []
    if addition.registered, let clientID = addition.clientID {
      let redirect = addition.redirectPort.map {
        " with the redirect URI \(ProviderAddition.redirectURI(port: $0))"
      }
      lines.append("Registered authtui as the client \(clientID)\(redirect ?? "").")
    }
    guard addition.clientID != nil else {
      let guide = addition.guide
      lines.append(
        "Wrote \(file) without a client id: \(addition.issuer) lets no application "
          + "register itself.")
      lines.append("Ask its administrator for a client id:")
      lines += guide.facts.map { "  \($0.label): \($0.value)" }
      if let note = guide.note { lines.append("  note: \(note)") }
      lines.append(
        "Then: `authtui providers add \(addition.id) --issuer \(addition.issuer) --client-id "
          + "ID --replace`, or add \"client_id\" to the file.")
      return lines.joined(separator: "\n")
    }
    lines.append("Wrote \(file). Sign in with `authtui login \(addition.id)`.")
    return lines.joined(separator: "\n")
  }

  /// The `--json` object: what was written and what the server offers, never a secret.
  static func json(_ addition: ProviderAddition, file: String) -> String {
    let summary = addition.summary
    let refresh: OrderedJSON = summary.refresh.map(OrderedJSON.bool) ?? .null
    return OrderedJSON.object([
      ("id", .string(addition.id.rawValue)), ("file", .string(file)),
      ("issuer", .string(addition.issuer)),
      ("client_id", addition.clientID.map(OrderedJSON.string) ?? .null),
      ("registered", .bool(addition.registered)),
      (
        "redirect_uri",
        addition.redirectPort.map { .string(ProviderAddition.redirectURI(port: $0)) } ?? .null
      ),
      ("flows", .array(addition.flows.map { .string($0.rawValue) })),
      ("scopes", .array(addition.scopes.map(OrderedJSON.string))),
      (
        "offers",
        .object([
          ("documents", .array(summary.documents.map { .string($0.rawValue) })),
          ("flows", .array(summary.flows.map { .string($0.rawValue) })),
          ("refresh", refresh), ("revocation", .bool(summary.revocation)),
          ("end_session", .bool(summary.signOutPage)),
          ("registration", .bool(summary.registration)),
          ("pushed_authorization_requests", .string(summary.pushedRequests.rawValue)),
          ("dpop_signing_alg_values", .array(summary.dpopAlgorithms.map(OrderedJSON.string))),
        ])
      ),
    ]).text
  }
}
