import AuthCore
import Foundation
import JSON
import Providers
import Spelling
import System

/// `authtui providers add ID --issuer URL [--client-id ID] [--client-secret-file PATH]
/// [--name NAME] [--flow pkce|device]… [--replace] [--json]`: a provider of one's own from its
/// issuer URL, registered with the server when it allows it (RFC 7591); and
/// `authtui providers add PRESET --client-id ID [--client-secret-file PATH]`: a built-in
/// preset with the client id one registered for it, written as the UI's setup writes it.
struct ProvidersAddCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "add",
    summary: "Add your own provider from its issuer URL, registering authtui when it allows it.",
    details: """
      Reads the server's OpenID Connect discovery document and its RFC 8414 metadata (both
      /.well-known/oauth-authorization-server forms), says what it offers, and writes
      providers/ID.json (the folder made 0700 if missing, the file 0600, atomically, never
      through a link; whether it can be written is checked before any request, and a failed
      attempt leaves no folder it made behind) with the
      issuer, the client id, the flows and the scopes: every sign-in discovers the endpoints
      afresh. Without --client-id, authtui registers itself where the
      server allows it (RFC 7591) as a native public client with a fixed loopback redirect
      URI, and keeps what the server issued for managing the registration (never printed)
      in the file, so that `providers remove` deletes it too (RFC 7592); otherwise it writes
      the file without a client id and says what to ask the server's administrator for.
      --client-secret-file reads a client secret from the file's first line, for a server
      that wants one at its token endpoint. --flow (repeatable) keeps only those flows.
      For a built-in preset (github, gitlab, google, microsoft, simkl, hivesigner, muhajir)
      give only --client-id (and --client-secret-file where the preset wants one, as Google's
      does): it goes into providers/ID.json beside what the file holds already.
      --replace over a provider authtui registered deletes that registration at the server
      once the new file is written (RFC 7592, as `providers remove` does), unless the new file
      names the same client; the accounts signed in through the old client then need a new
      sign-in, and standard error names them (from a running agent, else from the vault
      when a passphrase variable or `vault unlock --cache` opens it without a prompt; else
      it says they were not looked for). --json adds "old_client_accounts" (their names, or
      null when not looked for).
      Exit 2 for a usage error, 4 when ID exists (--replace overwrites its file; for a preset,
      sets another client id) or is a preset given --issuer, 7 when the server cannot be
      reached, its metadata is unusable or it refuses the registration, or when it cannot
      delete the replaced registration (the new file is written all the same).
      """,
    arguments: [.required("ID", \.id, .newProviderID)],
    options: [
      .value(
        "issuer", \.issuer, .text, "URL",
        help: "the server's issuer (https, or http on 127.0.0.1 or localhost); none for a preset"),
      .value(
        "client-id", \.clientID, .clientID, "ID",
        help: "a client id you have already (no registration then)"),
      .value(
        "client-secret-file", \.clientSecretFile, .namedSecretFile, "PATH",
        help: "a file whose first line is the client secret"),
      .value(
        "name", \.name, .providerName, "NAME",
        help: "the name to show (visible characters and spaces)"),
      .repeated(
        "flow", \.flows, .flow(among: [.pkce, .device]),
        help: "keep only this flow (repeat for both; default: all offered)"),
      .flag("replace", \.replace, help: "overwrite providers/ID.json"),
      .flag(
        "json", \.json,
        help: "print one JSON object (id, file, issuer, client_id, registered, flows, offers)"),
    ])

  var global = GlobalOptions()
  /// The new provider's id; nil only until the command line is read (ID is required).
  var id: ProviderID?
  /// `--issuer`.
  var issuer = ""
  /// `--client-id`: registration is skipped.
  var clientID: String?
  /// `--client-secret-file`: the file as given, and the secret it holds.
  var clientSecretFile: SecretFile?
  /// `--name`.
  var name: String?
  /// `--flow`: the flows kept; none for every flow offered.
  var flows: [SignInFlow] = []
  /// `--replace`.
  var replace = false
  /// `--json`.
  var json = false

  /// The secret `--client-secret-file` holds.
  var clientSecret: ClientSecret? { clientSecretFile?.secret }

  /// A file `--client-secret-file` named, as given, and the client secret on its first line.
  struct SecretFile: Sendable {
    let path: String
    let secret: ClientSecret
  }

  /// This command line again with `--replace`, to run as it is: the same id and options,
  /// each a word a POSIX shell takes as written (a name with a space is quoted), a secret
  /// file by its path, never the secret, and the `--config` folder when one was given (the
  /// other global options do not change what is written).
  var replacingCommand: String {
    var words: [String] = []
    func add(_ option: String, _ value: String?, keeping extra: String = "/") {
      guard let value else { return }
      words += [
        option,
        MessageQuoting.shellWord(MessageQuoting.shown(value, limit: 4096), keeping: extra),
      ]
    }
    add("--config", global.config)
    words += ["providers", "add", id?.rawValue ?? "ID"]
    add("--issuer", issuer.isEmpty ? nil : issuer, keeping: ":/~%=,")
    add("--client-id", clientID)
    add("--client-secret-file", clientSecretFile?.path)
    add("--name", name)
    for flow in flows { words += ["--flow", flow.rawValue] }
    if json { words.append("--json") }
    return (["authtui"] + words + ["--replace"]).joined(separator: " ")
  }

  /// The preset ID names, when it is a built-in preset's id.
  private var preset: ProviderFile? {
    id.flatMap { id in ProviderCatalog.presets[id.rawValue].flatMap { $0.id == id ? $0 : nil } }
  }

  mutating func validate() throws(CommandFailure) {
    if clientSecret != nil && clientID == nil {
      throw CommandFailure(
        exitCode: .usage,
        message: "--client-secret-file goes with --client-id: a secret is issued with a "
          + "client id (authtui registers itself as a public client, with no secret)")
    }
    // Before anything repeats the issuer: the password is in it.
    switch ProviderAddition.issuerProblem(issuer) {
    case .credentialsInIssuer(let credentials)?:
      throw CommandFailure(
        exitCode: .usage, message: "--issuer \(credentials.problem)", code: "credentials_in_issuer")
    case let problem?:
      throw CommandFailure(
        exitCode: .usage, message: "--issuer " + problem.description, code: "invalid_issuer")
    case nil: break
    }
    guard issuer.isEmpty, let id else { return }
    guard let preset else {
      throw CommandFailure(
        exitCode: .usage,
        message: "'providers add' needs --issuer URL, the server's issuer (for example "
          + "--issuer https://id.example.com/realms/work)")
    }
    guard clientID != nil else {
      throw CommandFailure(
        exitCode: .usage,
        message: "\(id) is a built-in preset: give it the client id you registered for it, "
          + "`authtui providers add \(id) --client-id ID` (`authtui providers show \(id)` says "
          + "where to register one)")
    }
    guard name == nil, flows.isEmpty else {
      throw CommandFailure(
        exitCode: .usage,
        message: "--name and --flow describe a provider of your own; the \(id) preset keeps its "
          + "own (give another id with --issuer for a server of your own)")
    }
    if preset.clientSecretRequired == true, clientSecret == nil {
      throw CommandFailure(
        exitCode: .usage,
        message: "the \(id) preset needs your application's client secret too: "
          + "--client-secret-file PATH, a file whose first line is the secret")
    }
  }

  /// How long the discovery (all its requests together) may take, and then the registration:
  /// 30 s, or in a debug build the seconds `AUTHTUI_TEST_REQUEST_TIMEOUT` gives, so that a
  /// test of a server that never answers does not wait half a minute.
  static var requestTimeout: TimeInterval {
    TestSeconds.value(of: testRequestTimeoutVariable, in: ProcessInfo.processInfo.environment)
      ?? 30
  }

  /// Debug and test builds only: the seconds in place of `requestTimeout`'s 30.
  static let testRequestTimeoutVariable = "AUTHTUI_TEST_REQUEST_TIMEOUT"

  func run(console: Console) async -> ExitCode {
    guard let id else { return .usage }  // read from the required ID before this runs
    do throws(CommandFailure) {
      if issuer.isEmpty, preset != nil, let clientID {
        try setUpPreset(id, clientID: clientID, console: console)
        return .ok
      }
      do {
        // Before any request: a registration that could not be saved would be left behind.
        try ProviderAddition.checkAvailable(
          id, in: AccountAccess.configuration(global), replacing: replace)
      } catch {
        throw refusal(error)
      }
      let transport = URLSessionTransport()
      let metadata: OIDCProviderMetadata
      do {
        metadata = try await OIDCProvider.discover(
          issuer: issuer, transport: transport, requestTimeout: Self.requestTimeout)
      } catch {
        throw Self.discoveryFailure(error, issuer: issuer)
      }
      var addition: ProviderAddition
      do {
        addition = try ProviderAddition(
          id: id, issuer: issuer, metadata: metadata, name: name, clientID: clientID,
          clientSecret: clientSecret, flows: flows)
      } catch {
        throw Self.failure(error)
      }
      if !json { console.out(Self.summary(addition.summary)) }
      if addition.needsRegistration, let endpoint = metadata.registrationEndpoint {
        do {
          try await addition.register(
            at: endpoint, transport: transport, requestTimeout: Self.requestTimeout)
        } catch .registration(let error) {
          throw Self.registrationFailure(error, addition)
        } catch {
          throw Self.failure(error)
        }
      }
      let location = AccountAccess.configuration(global)
      // The file written over may hold a registration authtui made (RFC 7592): deleted once
      // the new file is written, since nothing would be left to delete it with.
      var replaced: ReplacedRegistration?
      if replace,
        let old = ProviderCatalog.load(from: location, providers: .only([id])).entry(id)?.file
      {
        replaced = addition.replacing(old)
      }
      let file: URL
      do {
        file = try addition.save(in: location, replacing: replace)
      } catch {
        throw refusal(error)
      }
      let shown = ConfigurationLocation.display(file)
      var deletion: ReplacedDeletion?
      var oldClientAccounts: Result<[ProviderAccounts.Held], CommandFailure>?
      if let replaced {
        deletion = await Self.delete(replaced, file: shown, transport: transport)
        // Their refresh tokens belong to the old client, which the new file does not name.
        oldClientAccounts = await Self.oldClientAccounts(of: id, global, console: console)
      }
      if json {
        let members =
          (deletion?.members ?? []) + (oldClientAccounts.map { [Self.oldClientMember($0)] } ?? [])
        console.out(Self.json(addition, file: shown, adding: members))
      } else {
        console.out(
          Self.outcome(addition, file: shown) + (deletion?.done.map { "\n" + $0 } ?? ""))
      }
      if let note = oldClientAccounts.flatMap({ Self.oldClientNote($0, of: id) }) {
        console.err(note)
      }
      if let failure = deletion?.failure {
        console.err(failure.line)
        return failure.exitCode
      }
      return .ok
    } catch {
      if json {
        console.out(
          OrderedJSON.object([
            ("error", .string(error.code)), ("message", .string(error.message)),
          ]).text)
      }
      console.err(error.line)
      return error.exitCode
    }
  }

  /// `providers add PRESET --client-id ID`: the client id (and secret) written into the
  /// preset's file as the UI's setup form writes them (`ProviderFile.saveSetup`: the file's
  /// other fields kept, 0600, atomically, never through a link). A preset that has a client
  /// id already keeps it unless `--replace`.
  private func setUpPreset(_ id: ProviderID, clientID: String, console: Console)
    throws(CommandFailure)
  {
    let location = AccountAccess.configuration(global)
    let catalog = ProviderCatalog.load(
      from: location, providers: .only([id]), defaultLoginTimeout: nil)
    if let entry = catalog.entry(id), let current = entry.file.clientID, !replace {
      throw CommandFailure(
        exitCode: .notFound,
        message: "the \(id) preset has a client id already (\(current), in \(entry.editFile)); "
          + "`\(replacingCommand)` replaces it", code: "provider_exists")
    }
    let file: URL
    do {
      file = try ProviderFile.saveSetup(
        id, clientID: clientID, redirectPort: nil, clientSecret: clientSecret, in: location)
    } catch .file(let path, let reason) {
      throw CommandFailure(exitCode: .failure, message: "\(path): \(reason)")
    } catch {
      // The client id and the secret file were checked as the command line was read.
      throw CommandFailure(exitCode: .usage, message: error.description)
    }
    let shown = ConfigurationLocation.display(file)
    if json {
      console.out(
        OrderedJSON.object([
          ("id", .string(id.rawValue)), ("file", .string(shown)), ("preset", .string(id.rawValue)),
          ("client_id", .string(clientID)), ("registered", .bool(false)),
        ]).text)
    } else {
      console.out(
        "Wrote \(shown): the \(id) preset with your client id"
          + (clientSecret == nil ? "" : " and client secret")
          + ". Sign in with `authtui login \(id)`.")
    }
  }

  /// What deleting the registration of the replaced file came to: the line that says it was
  /// deleted, or the failure (exit 7, as `providers remove` exits when the server cannot
  /// delete one, and `logout` when it cannot revoke); and the `--json` members that say which.
  struct ReplacedDeletion {
    var done: String?
    var failure: CommandFailure?
    var members: [(String, OrderedJSON)]
  }

  /// Deletes `replaced` at the server (RFC 7592 §2.3, as `providers remove` does), after the
  /// new file, `file`, was written; the server's reason when it cannot, never the token.
  static func delete(_ replaced: ReplacedRegistration, file: String, transport: any Transport)
    async -> ReplacedDeletion
  {
    let client = replaced.clientID.map { "the client \($0)" } ?? "the client"
    do throws(AuthError) {
      try await ClientRegistrar(transport: transport, requestTimeout: requestTimeout).delete(
        at: replaced.uri, accessToken: replaced.token)
      return ReplacedDeletion(
        done: "Deleted the registration of \(client), which the replaced file held, at the "
          + "server.",
        members: [("replaced_registration", "deleted")])
    } catch {
      let code = AccountAccess.failure(.auth(error)).code
      return ReplacedDeletion(
        failure: CommandFailure(
          exitCode: .providerError,
          message: "wrote \(file), but the registration of \(client), which the replaced file "
            + "held, could not be deleted at the server: \(error.message) The new file does not "
            + "hold what deleting it takes, so the registration stays there: the server's "
            + "administrator can remove it",
          code: code),
        members: [
          ("replaced_registration", "failed"), ("replaced_registration_code", .string(code)),
          ("replaced_registration_message", .string(error.message)),
        ])
    }
  }

  /// A registration that failed, with the command that adds the provider with a client id
  /// obtained another way.
  private static func registrationFailure(_ error: AuthError, _ addition: ProviderAddition)
    -> CommandFailure
  {
    let failure = AccountAccess.failure(.auth(error))
    if case .transport(.timedOut(let seconds)) = error {
      // Said of the registration alone: the discovery before it had answered in its own time.
      return CommandFailure(
        exitCode: failure.exitCode,
        message: "the registration endpoint of \(addition.issuer) did not answer within "
          + "\(Int(clamping: seconds.rounded())) seconds (the discovery before it had answered); "
          + "try again, or add the provider with a client id registered another way: "
          + "`authtui providers add \(addition.id) --issuer \(addition.issuer) --client-id ID`",
        code: failure.code)
    }
    guard case .registrationFailed = error else { return failure }
    return CommandFailure(
      exitCode: failure.exitCode,
      message: failure.message + " Then: `authtui providers add \(addition.id) --issuer "
        + "\(addition.issuer) --client-id ID`.", code: failure.code)
  }

  /// A discovery failure: the issuer itself is a usage error (2), the server's fault or the
  /// network's is 7. The words are `ProviderAdditionError`'s, which the UI's form shows too,
  /// with `--issuer` named where the option is at fault.
  private static func discoveryFailure(_ error: AuthError, issuer: String) -> CommandFailure {
    let said = ProviderAdditionError.discovery(error, issuer: issuer).description
    switch error {
    case .discoveryFailed(.credentialsInIssuer(let credentials)):
      // The issuer is not repeated: the password is in it.
      return CommandFailure(
        exitCode: .usage, message: "--issuer \(credentials.problem)", code: error.code)
    case .discoveryFailed(.unreachableIssuer), .discoveryFailed(.invalidIssuer):
      return CommandFailure(exitCode: .usage, message: "--issuer " + said, code: error.code)
    case .discoveryFailed(.issuerMismatch(_, let received?)):
      return CommandFailure(
        exitCode: .providerError, message: said + ": --issuer \(received)", code: error.code)
    default:
      return CommandFailure(exitCode: .providerError, message: said, code: error.code)
    }
  }

  /// `failure(_:)`, where a provider file that exists already is said with the command that
  /// replaces it, this one with `--replace`.
  private func refusal(_ error: ProviderAdditionError) -> CommandFailure {
    guard case .exists(_, let path) = error else { return Self.failure(error) }
    return CommandFailure(
      exitCode: .notFound,
      message: "\(path) exists already; add the provider under another id, or replace the "
        + "file: `\(replacingCommand)`", code: "provider_exists")
  }

  static func failure(_ error: ProviderAdditionError) -> CommandFailure {
    let exitCode: ExitCode
    switch error {
    case .presetID, .exists: exitCode = .notFound
    case .flowNotOffered, .credentialsInIssuer, .documentAddress: exitCode = .usage
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

  /// The `--json` object: what was written and what the server offers, never a secret, then
  /// `adding`.
  static func json(
    _ addition: ProviderAddition, file: String, adding: [(String, OrderedJSON)] = []
  ) -> String {
    let summary = addition.summary
    let refresh: OrderedJSON = summary.refresh.map(OrderedJSON.bool) ?? .null
    let members: [(String, OrderedJSON)] = [
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
    ]
    return OrderedJSON.object(members + adding).text
  }
}

extension ValueType where Value == ProvidersAddCommand.SecretFile {
  /// `--client-secret-file PATH`, read as every client secret file is (`secretFile`), with its
  /// path kept for the command a message gives back.
  static var namedSecretFile: ValueType {
    let reading = ValueType<ClientSecret>.secretFile
    return ValueType(completion: reading.completion) { path, context throws(CommandFailure) in
      ProvidersAddCommand.SecretFile(path: path, secret: try reading.read(path, context))
    }
  }
}

extension ValueType where Value == String? {
  /// The name a provider is shown by (`--name`), in lists and the UI: nothing in it may be
  /// invisible or act on a terminal (`TerminalText.isInvisible`, the rule account labels
  /// follow: no control character, line break, direction control or format character). An
  /// empty name is none.
  static var providerName: ValueType {
    ValueType { text, context throws(CommandFailure) in
      guard !text.isEmpty else { return nil }
      guard let scalar = text.unicodeScalars.first(where: TerminalText.isInvisible) else {
        return text
      }
      func code(_ scalar: Unicode.Scalar) -> String {
        String(scalar.value, radix: 16, uppercase: true)
      }
      // Each one written as \u{…}, a zero-width space too, so the message shows where it is.
      let shown = text.unicodeScalars.map {
        TerminalText.isInvisible($0) ? "\\u{\(code($0))}" : String($0)
      }.joined()
      let visible = String(
        String.UnicodeScalarView(text.unicodeScalars.filter { !TerminalText.isInvisible($0) }))
      let instead = visible.trimmingCharacters(in: .whitespaces).isEmpty ? "Work SSO" : visible
      throw CommandFailure(
        exitCode: .usage,
        message: "\(context.name) \(MessageQuoting.quoted(shown)) holds U+\(code(scalar)), a "
          + "character that does not show (a control character, line break or direction "
          + "mark); a name is visible characters and spaces: leave it out, such as "
          + MessageQuoting.quoted(instead))
    }
  }
}

extension ValueType where Value == ProviderID {
  /// The id of the provider `providers add` adds. An issuer URL in its place (what
  /// `oidc-gen --issuer` users type first) is refused with the command that adds it, under
  /// the id its host suggests.
  static var newProviderID: ValueType {
    ValueType { text, context throws(CommandFailure) in
      guard let scheme = URLComponents(string: text)?.scheme?.lowercased(),
        scheme == "https" || scheme == "http"
      else {
        return try ValueType.providerID.read(text, context)
      }
      let id = ProviderAddition.suggestedID(forIssuer: text, avoiding: [])
      let shellWord = MessageQuoting.shellWord(
        MessageQuoting.shown(text, limit: 200), keeping: ":/~%=,")
      throw CommandFailure(
        exitCode: .usage,
        message: "\(MessageQuoting.quoted(text, limit: 200)) is an issuer URL, not a provider "
          + "id; give the provider an id of your choice and the URL with --issuer, for example "
          + "`authtui \(context.command) \(id) --issuer \(shellWord)`")
    }
  }
}
