import Foundation
import Loopback
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui providers add`, `show` and `remove` with the built binary against
/// `authtui-sandbox`: an issuer URL is enough.
@Suite struct ProvidersAddCommandTests {
  /// The sandbox URL of `path`.
  static func url(_ cli: CLIHarness, _ path: String) -> String {
    "http://127.0.0.1:\(cli.workspace.port)\(path)"
  }

  /// The provider file `id` of the harness, parsed.
  static func file(_ cli: CLIHarness, _ id: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path(cli, id)))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  static func path(_ cli: CLIHarness, _ id: String) -> String {
    cli.workspace.configPath + "/providers/\(id).json"
  }

  /// The file `id` as messages name it: HOME is the workspace folder.
  static func shown(_ id: String) -> String { "~/config/providers/\(id).json" }

  static func mode(_ path: String) -> mode_t {
    var status = stat()
    guard lstat(path, &status) == 0 else { return 0 }
    return status.st_mode & 0o777
  }

  /// Every file under `folder` but `except`, as text.
  static func otherFiles(in folder: String, except: Set<String>) -> [String: String] {
    var texts: [String: String] = [:]
    let enumerator = FileManager.default.enumerator(atPath: folder)
    while let name = enumerator?.nextObject() as? String {
      let path = folder + "/" + name
      guard !except.contains(path),
        let data = FileManager.default.contents(atPath: path)
      else { continue }
      texts[path] = String(decoding: data, as: UTF8.self)
    }
    return texts
  }

  static let dynamicSummary = """
      found:           OpenID Connect discovery, RFC 8414 metadata
      sign-in:         browser (pkce), code on another device (device)
      refresh:         yes
      revocation:      yes (RFC 7009)
      sign-out page:   no
      registration:    offered (RFC 7591)
      pushed requests: no
      DPoP:            no
    """

  @Test func registersItselfThenSignsInRefreshesAndRevokesThroughRFC8414Metadata() async throws {
    let cli = try await CLIHarness.start()
    let issuer = Self.url(cli, "/dynamic")
    let added = try await cli.run(["providers", "add", "dyn", "--issuer", issuer])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stderr == "")
    let file = try Self.file(cli, "dyn")
    let clientID = try #require(file["client_id"] as? String)
    let port = try #require(file["redirect_port"] as? Int)
    #expect(
      added.stdout == """
        Discovered \(issuer):
        \(Self.dynamicSummary)
        Registered authtui as the client \(clientID) with the redirect URI http://127.0.0.1:\(port)/callback.
        Wrote \(Self.shown("dyn")). Sign in with `authtui login dyn`.

        """)
    #expect(Self.mode(Self.path(cli, "dyn")) == 0o600)
    #expect(file["issuer"] as? String == issuer)
    #expect(file["flows"] as? [String] == ["pkce", "device"])
    #expect(file["scopes"] as? [String] == ["openid", "profile", "email", "offline_access"])
    #expect(
      file["registration_client_uri"] as? String
        == Self.url(cli, "/dynamic/register/\(clientID)"))
    #expect(file["registration_access_token"] is String)
    #expect(await cli.stat("registrations") == 1)

    // A sign-in with the registered client, its redirect URI held to the registered port.
    await cli.hook("settings", #"{"profile": "dynamic", "access_token_lifetime": 30}"#)
    let login = try await cli.login("dyn")
    #expect(login.stdout.hasPrefix("Signed in as dyn/alice. "))
    #expect(login.stderr.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A\(port)%2Fcallback"))
    let token = try await cli.run(["token", "dyn/alice"])
    #expect(token.status == 0, "\(token.stderr)")
    #expect(await cli.stat("refreshes") == 1)
    // The revocation endpoint is only in the RFC 8414 document.
    let logout = try await cli.run(["logout", "dyn/alice"])
    #expect(logout.status == 0, "\(logout.stderr)")
    #expect(
      logout.stdout
        == "Signed out of dyn/alice: the provider revoked its tokens, and it was removed here.\n")
    #expect(await cli.stat("revocations") == 2)
    await cli.stop()
  }

  @Test func theSecretsAreOnlyInTheProviderFile() async throws {
    let cli = try await CLIHarness.start()
    let secretFile = try cli.folder.write("not-a-secret-to-print-7f3a\n", to: "secret.txt")
    var outputs: [String] = []
    for arguments in [
      ["providers", "add", "dyn", "--issuer", Self.url(cli, "/dynamic")],
      ["providers", "add", "dyn-json", "--issuer", Self.url(cli, "/dynamic"), "--json"],
      [
        "providers", "add", "manual", "--issuer", Self.url(cli, "/oidc"), "--client-id", "abc",
        "--client-secret-file", secretFile,
      ],
      ["providers"], ["providers", "--json"], ["providers", "show", "dyn"],
      ["providers", "show", "manual"],
    ] {
      let result = try await cli.run(arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      outputs += [result.stdout, result.stderr]
    }
    let token = try #require(try Self.file(cli, "dyn")["registration_access_token"] as? String)
    let jsonToken = try #require(
      try Self.file(cli, "dyn-json")["registration_access_token"] as? String)
    let manual = try Self.file(cli, "manual")
    #expect(manual["client_secret"] as? String == "not-a-secret-to-print-7f3a")
    #expect(manual["client_secret_required"] as? Bool == true)
    #expect(Self.mode(Self.path(cli, "manual")) == 0o600)
    let secrets = [token, jsonToken, "not-a-secret-to-print-7f3a"]
    for output in outputs {
      #expect(!secrets.contains { output.contains($0) }, "\(output)")
    }
    let written = Set(["dyn", "dyn-json", "manual"].map { Self.path(cli, $0) } + [secretFile])
    for (path, text) in Self.otherFiles(in: cli.folder.path, except: written) {
      #expect(!secrets.contains { text.contains($0) }, "\(path)")
    }
    await cli.stop()
  }

  @Test func addsAProviderWithAClientIDAndPrintsJSON() async throws {
    let cli = try await CLIHarness.start()
    let issuer = Self.url(cli, "/oidc")
    let added = try await cli.run([
      "providers", "add", "work", "--issuer", issuer, "--client-id", "sandbox-client", "--name",
      "Work SSO", "--flow", "pkce", "--json",
    ])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(
      added.stdout
        == #"{"id":"work","file":"\#(Self.shown("work"))","issuer":"\#(issuer)","#
        + #""client_id":"sandbox-client","registered":false,"redirect_uri":null,"#
        + #""flows":["pkce"],"scopes":["openid","profile","email","offline_access"],"#
        + #""offers":{"documents":["openid-configuration","oauth-authorization-server"],"#
        + #""flows":["pkce","device"],"refresh":true,"revocation":true,"end_session":true,"#
        + #""registration":false,"pushed_authorization_requests":"no","#
        + #""dpop_signing_alg_values":[]}}"# + "\n")
    let file = try Self.file(cli, "work")
    #expect(file["name"] as? String == "Work SSO")
    #expect(file["registration_access_token"] == nil)
    #expect(await cli.stat("registrations") == 0)
    let login = try await cli.login("work")
    #expect(login.stdout.hasPrefix("Signed in as work/alice. "))
    await cli.stop()
  }

  @Test func withoutRegistrationItSaysWhatToAskFor() async throws {
    let cli = try await CLIHarness.start()
    let issuer = Self.url(cli, "/oidc")
    let added = try await cli.run(["providers", "add", "plain", "--issuer", issuer])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(
      added.stdout.hasSuffix(
        """
          registration:    no
          pushed requests: no
          DPoP:            no
        Wrote \(Self.shown("plain")) without a client id: \(issuer) lets no application register itself.
        Ask its administrator for a client id:
          application type: public (native) client, no client secret
          redirect URI: http://127.0.0.1/callback (any port)
          scopes: openid profile email offline_access
          note: ask the administrator of \(issuer) for a public client (no secret) with the redirect URI http://127.0.0.1/callback on any port and the grant types authorization_code, urn:ietf:params:oauth:grant-type:device_code, refresh_token
        Then: `authtui providers add plain --issuer \(issuer) --client-id ID --replace`, or add "client_id" to the file.

        """), "\(added.stdout)")
    let listed = try await cli.run(["providers"])
    let line = try #require(listed.stdout.split(separator: "\n").first { $0.hasPrefix("plain ") })
    #expect(
      line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty } == [
          "plain", "plain", "no client id", "authtui providers show plain",
        ])
    await cli.stop()
  }

  @Test func aRefusedRegistrationExits7AndWritesNothing() async throws {
    let cli = try await CLIHarness.start()
    let issuer = Self.url(cli, "/dynamic")
    await cli.hook("settings", #"{"profile": "dynamic", "registration": "closed"}"#)
    let closed = try await cli.run(["providers", "add", "dyn", "--issuer", issuer])
    #expect(closed.status == 7)
    #expect(
      closed.stderr
        == "authtui: The server's registration endpoint wants an initial access token (HTTP "
        + "401), which authtui does not have; register a public (native) client with the "
        + "server's administrator and give authtui its client id. Then: `authtui providers add "
        + "dyn --issuer \(issuer) --client-id ID`.\n")
    #expect(!FileManager.default.fileExists(atPath: Self.path(cli, "dyn")))
    await cli.hook("settings", #"{"profile": "dynamic", "registration": "vendor_field"}"#)
    let vendor = try await cli.run(["providers", "add", "dyn", "--issuer", issuer])
    #expect(vendor.status == 7)
    #expect(
      vendor.stderr.hasPrefix(
        "authtui: The server refused authtui's registration (invalid_client_metadata: "
          + "vendor_tenant is required by this server's policy.): it wants client details "
          + "authtui does not send; "))
    #expect(!FileManager.default.fileExists(atPath: Self.path(cli, "dyn")))
    await cli.stop()
  }

  @Test func anUnreachableOrUnusableIssuerExits7AndBadUsageExits2() async throws {
    let cli = try await CLIHarness.start()
    let nowhere = try await cli.run(["providers", "add", "x", "--issuer", "http://127.0.0.1:1/x"])
    #expect(nowhere.status == 7)
    #expect(
      nowhere.stderr
        == "authtui: http://127.0.0.1:1/x could not be discovered: Could not connect to "
        + "127.0.0.1:1; check your network connection (and any proxy) and try again.\n")
    let missing = try await cli.run([
      "providers", "add", "x", "--issuer", Self.url(cli, "/simkl-api"),
    ])
    #expect(missing.status == 7)
    // No provider file exists yet: the fix named is the issuer URL, not a file's field.
    #expect(
      missing.stderr
        == "authtui: \(Self.url(cli, "/simkl-api")) publishes neither OpenID discovery nor RFC "
        + "8414 metadata (\(Self.url(cli, "/simkl-api"))/.well-known/openid-configuration "
        + "answered HTTP 400); check the issuer URL: the server's documentation names it\n")
    let slash = try await cli.run(["providers", "add", "x", "--issuer", Self.url(cli, "/oidc/")])
    #expect(slash.status == 7)
    #expect(
      slash.stderr
        == "authtui: the server at \(Self.url(cli, "/oidc/")) names its issuer "
        + "\(Self.url(cli, "/oidc")); give exactly that: --issuer \(Self.url(cli, "/oidc"))\n")
    let http = try await cli.run(["providers", "add", "x", "--issuer", "http://example.com"])
    #expect(http.status == 2)
    #expect(
      http.stderr
        == "authtui: --issuer http://example.com is not an https URL (http only on 127.0.0.1 "
        + "or localhost) without query or fragment; give the server's issuer, for example "
        + "https://id.example.com\n")
    // URLSession failed these as URLError -1000, said as a network error (exit 7).
    let port = try await cli.run([
      "providers", "add", "x", "--issuer", "http://127.0.0.1:99999/realm",
    ])
    #expect(port.status == 2)
    #expect(
      port.stderr
        == "authtui: --issuer http://127.0.0.1:99999/realm is not a valid URL: its port 99999 "
        + "is not a number from 1 to 65535\n")
    let ipv6 = try await cli.run(["providers", "add", "x", "--issuer", "http://[::1]:8080/realm"])
    #expect(ipv6.status == 2)
    #expect(
      ipv6.stderr
        == "authtui: --issuer http://[::1]:8080/realm is not a valid URL: its host is an IPv6 "
        + "address, which authtui's HTTP client cannot reach; give 127.0.0.1 or a host name "
        + "instead\n")
    let noIssuer = try await cli.run(["providers", "add", "x"])
    #expect(noIssuer.status == 2)
    let badID = try await cli.run(["providers", "add", "Work", "--issuer", "https://x.test"])
    #expect(badID.status == 2)
    #expect(badID.stderr.contains("is not a valid provider id"))
    let flow = try await cli.run([
      "providers", "add", "x", "--issuer", Self.url(cli, "/google"), "--flow", "device",
    ])
    #expect(flow.status == 2)
    #expect(
      flow.stderr
        == "authtui: \(Self.url(cli, "/google")) does not offer the device flow (it offers "
        + "pkce); leave --flow out to take every flow it offers\n")
    #expect(await cli.stat("registrations") == 0)
    await cli.stop()
  }

  /// A server on this machine that names itself `http://localhost:PORT/…` (a Keycloak at
  /// http://localhost:8080/realms/dev) could not be added: plain http was allowed on
  /// 127.0.0.1 alone, and its metadata must name the issuer given, so 127.0.0.1 in its place
  /// would not do either. The sandbox names itself by 127.0.0.1 whatever the Host header says,
  /// so a relay in front of it answers in its place with the addresses rewritten to the
  /// relay's `localhost` ones: discovery, the registration and its deletion all go through
  /// `http://localhost`, which libcurl takes to loopback itself.
  @Test func aServerNamedLocalhostIsAddedRegisteredAndRemoved() async throws {
    let cli = try await CLIHarness.start()
    let port = cli.workspace.port
    let relay = try LoopbackServer(configuration: .server) { request in
      let own = "http://" + (request.header("Host") ?? "")
      let headers = ["Content-Type", "Authorization", "Accept"].compactMap { name in
        request.header(name).map { "\(name): \($0)" }
      }
      let answer = await RawHTTPClient.request(
        request.method, request.target, port: port, headers: headers,
        body: request.body.isEmpty ? nil : String(decoding: request.body, as: UTF8.self))
      let body = answer.body.replacingOccurrences(of: "http://127.0.0.1:\(port)", with: own)
      return HTTPResponse(
        status: answer.status,
        headers: [("Content-Type", answer.header("Content-Type") ?? "application/json")],
        body: Array(body.utf8))
    }
    let issuer = "http://localhost:\(relay.port)/dynamic"
    let added = try await cli.run(["providers", "add", "dev", "--issuer", issuer])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stdout.hasPrefix("Discovered \(issuer):\n"), "\(added.stdout)")
    #expect(
      added.stdout.hasSuffix("Wrote \(Self.shown("dev")). Sign in with `authtui login dev`.\n"))
    let file = try Self.file(cli, "dev")
    let clientID = try #require(file["client_id"] as? String)
    #expect(file["issuer"] as? String == issuer)
    #expect(file["registration_client_uri"] as? String == "\(issuer)/register/\(clientID)")
    #expect(await cli.stat("registrations") == 1)
    let removed = try await cli.run(["providers", "remove", "dev"])
    #expect(removed.status == 0, "\(removed.stderr)")
    #expect(
      removed.stdout
        == "Removed \(Self.shown("dev")); its registration at the server was deleted too.\n")
    #expect(await cli.stat("registration_deletions") == 1)
    await relay.stop()
    await cli.stop()
  }

  /// `providers add` registered authtui with the server before it found that the file could
  /// not be written, so each try left a client nobody could use at the server. What the
  /// write would refuse is refused first, in the write's words, before any request: a folder
  /// no file can be made in, a `providers` that is no folder, a FIFO where the file goes.
  @Test func aFileThatCannotBeWrittenIsRefusedBeforeAnyRegistration() async throws {
    let cli = try await CLIHarness.start()
    let add = ["providers", "add", "dyn", "--issuer", Self.url(cli, "/dynamic")]
    // A read-only folder. Root writes in one all the same, so as root the command runs as
    // nobody (through setpriv), whose folder it is.
    let outside = try TemporaryDirectory()
    let providers = outside.file("config/providers")
    try FileManager.default.createDirectory(atPath: providers, withIntermediateDirectories: true)
    var command = [Products.authtui]
    if geteuid() == 0 {
      try #require(access("/usr/bin/setpriv", X_OK) == 0, "as root, the test needs setpriv")
      let nobody: uid_t = 65534
      #expect(chmod(outside.path, 0o755) == 0)
      #expect(chown(outside.file("config"), nobody, nobody) == 0)
      #expect(chown(providers, nobody, nobody) == 0)
      let setpriv = ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "--"]
      command = ["/usr/bin/setpriv"] + setpriv + command
    }
    #expect(chmod(providers, 0o500) == 0)
    let readOnly = try await cli.run(
      Array(command.dropFirst()) + add, ["AUTHTUI_CONFIG_DIR": outside.file("config")],
      executable: command[0])
    #expect(readOnly.status == 1)
    #expect(
      readOnly.stderr
        == "authtui: \(providers)/dyn.json: it cannot be written (Permission denied)\n")
    #expect(readOnly.stdout == "")

    try FileManager.default.createDirectory(
      atPath: cli.folder.file("flat"), withIntermediateDirectories: true)
    _ = try cli.folder.write("not a folder\n", to: "flat/providers")
    let noFolder = try await cli.run(add, ["AUTHTUI_CONFIG_DIR": cli.folder.file("flat")])
    #expect(noFolder.status == 1)
    #expect(
      noFolder.stderr.hasPrefix(
        "authtui: ~/flat/providers/dyn.json: its folder cannot be created ("),
      "\(noFolder.stderr)")
    #expect(noFolder.stderr.hasSuffix("); check ~/flat\n"), "\(noFolder.stderr)")
    #expect(noFolder.stdout == "")

    try FileManager.default.createDirectory(
      atPath: cli.workspace.configPath + "/providers", withIntermediateDirectories: true)
    #expect(mkfifo(Self.path(cli, "dyn"), 0o600) == 0)
    let fifo = try await cli.run(add + ["--replace"])
    #expect(fifo.status == 1)
    #expect(
      fifo.stderr
        == "authtui: \(Self.shown("dyn")): it is a FIFO (named pipe); authtui writes only a "
        + "regular file there: replace it with one (or remove it), then try again\n")
    #expect(fifo.stdout == "")
    #expect(await cli.stat("registrations") == 0)
    #expect(await cli.stat("requests") == 0)
    await cli.stop()
  }

  /// `--issuer http://alice:S3cretPW@…` sent HTTP Basic credentials to every discovery URL
  /// and repeated the password three times on stderr: refused as a usage error before any
  /// request, the password never shown.
  @Test func anIssuerURLWithAUserAndPasswordIsRefusedUnsentAndUnrepeated() async throws {
    let cli = try await CLIHarness.start()
    let (asked, record) = AsyncStream<String>.makeStream()
    let server = try LoopbackServer(configuration: .server) { request in
      record.yield(request.header("Authorization") ?? "(none)")
      return .json("{}", status: 404)
    }
    let refusal =
      "names a user and password in the URL, which an issuer URL never holds (they would be "
      + "sent to the server): remove `alice:…@`"
    let added = try await cli.run([
      "providers", "add", "up", "--issuer", "http://alice:S3cretPW@127.0.0.1:\(server.port)/realm",
    ])
    #expect(added.status == 2)
    #expect(added.stderr == "authtui: --issuer \(refusal)\n")
    #expect(added.stdout == "")
    let user = try await cli.run([
      "providers", "add", "up", "--issuer", "http://alice@127.0.0.1:\(server.port)/realm",
    ])
    #expect(user.status == 2)
    #expect(
      user.stderr
        == "authtui: --issuer names a user in the URL, which an issuer URL never holds (it would "
        + "be sent to the server): remove `alice@`\n")
    record.finish()
    var requests: [String] = []
    for await authorization in asked { requests.append(authorization) }
    #expect(requests == [])
    await server.stop()
    await cli.stop()
  }

  /// A server that takes the connection and never answers: `providers add` and `providers
  /// show` used to give each discovery request its own deadline (60 s in all, saying "within
  /// 30 seconds"). The whole discovery keeps to the deadline it states; here 2 s
  /// (`AUTHTUI_TEST_REQUEST_TIMEOUT`), and the last place to look is not asked once it has
  /// passed. A registration endpoint that never answers is said to be the one.
  @Test func aServerThatNeverAnswersIsGivenUpOnWithinTheDeadlineTheMessageStates() async throws {
    let cli = try await CLIHarness.start()
    let (held, release) = AsyncStream<Void>.makeStream()
    let (asked, record) = AsyncStream<String>.makeStream()
    let silent = try LoopbackServer(configuration: .server) { request in
      record.yield(request.path)
      for await _ in held {}
      return .json("{}", status: 404)
    }
    let deadline: [String: String?] = ["AUTHTUI_TEST_REQUEST_TIMEOUT": "2"]
    let issuer = silent.baseURL + "/realm"
    let said =
      "could not be discovered: The provider did not answer within 2 seconds; check your "
      + "network connection and try again."
    let added = try await cli.run(["providers", "add", "x", "--issuer", issuer], deadline)
    #expect(added.status == 7)
    #expect(added.stderr == "authtui: \(issuer) \(said)\n")
    try FileManager.default.createDirectory(
      atPath: cli.workspace.configPath + "/providers", withIntermediateDirectories: true)
    try #"{"issuer": "\#(issuer)", "client_id": "c"}"#
      .write(toFile: Self.path(cli, "x"), atomically: true, encoding: .utf8)
    let shown = try await cli.run(["providers", "show", "x"], deadline)
    #expect(
      shown.stdout.contains(
        "Discovery of \(issuer) failed: The provider did not answer within 2 seconds; "),
      "\(shown.stdout)")
    release.finish()
    record.finish()
    var paths: [String] = []
    for await path in asked { paths.append(path) }
    #expect(!paths.contains("/realm/.well-known/oauth-authorization-server"), "\(paths)")
    await silent.stop()

    // Discovery answers at once; the registration endpoint never does.
    let (heldRegistration, releaseRegistration) = AsyncStream<Void>.makeStream()
    let registrar = try LoopbackServer(configuration: .server) { request in
      guard request.path == "/realm/.well-known/openid-configuration" else {
        if request.path == "/realm/register" { for await _ in heldRegistration {} }
        return .json("{}", status: 404)
      }
      let port = request.header("Host")?.split(separator: ":").last ?? ""
      let base = "http://127.0.0.1:\(port)/realm"
      return .json(
        #"{"issuer": "\#(base)", "authorization_endpoint": "\#(base)/auth", "#
          + #""token_endpoint": "\#(base)/token", "jwks_uri": "\#(base)/jwks", "#
          + #""registration_endpoint": "\#(base)/register", "#
          + #""response_types_supported": ["code"], "code_challenge_methods_supported": ["S256"]}"#
      )
    }
    let registering = registrar.baseURL + "/realm"
    let registered = try await cli.run(
      ["providers", "add", "y", "--issuer", registering], deadline)
    #expect(registered.status == 7, "\(registered.stderr)")
    #expect(
      registered.stderr
        == "authtui: the registration endpoint of \(registering) did not answer within 2 seconds "
        + "(the discovery before it had answered); try again, or add the provider with a client "
        + "id registered another way: `authtui providers add y --issuer \(registering) "
        + "--client-id ID`\n")
    releaseRegistration.finish()
    await registrar.stop()
    await cli.stop()
  }

  /// A self-signed certificate and a name that does not resolve reached the user as
  /// "URLError -1" and "Could not connect": each is said by name, with the fix.
  @Test func anUntrustedCertificateAndAnUnknownHostAreSaidByName() async throws {
    let cli = try await CLIHarness.start()
    let key = cli.folder.file("key.pem")
    let certificate = cli.folder.file("certificate.pem")
    let made = try await ChildProcess.run(
      "/usr/bin/openssl",
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-days", "2",
        "-keyout", key, "-out", certificate,
      ])
    try #require(made.status == 0, "\(made.stderr)")
    let port = try #require(LoopbackServer.freePort())
    let server = try RunningChild(
      "/usr/bin/openssl",
      ["s_server", "-key", key, "-cert", certificate, "-accept", "\(port)", "-www"])
    // It says ACCEPT once it listens.
    _ = await server.nextLine(timeout: 30)
    let issuer = "https://127.0.0.1:\(port)/realm"
    let selfSigned = try await cli.run(["providers", "add", "x", "--issuer", issuer])
    await server.kill()
    #expect(selfSigned.status == 7)
    #expect(
      selfSigned.stderr
        == "authtui: \(issuer) could not be discovered: The certificate of 127.0.0.1 is not "
        + "trusted (self-signed or from an unknown authority); give the server a certificate "
        + "from a trusted authority, or add its authority to this computer's trust store "
        + "(/usr/local/share/ca-certificates, then update-ca-certificates), and do not continue "
        + "on a network you do not trust.\n")
    // .invalid never resolves (RFC 6761 §6.4).
    let nowhere = "https://authtui-test.invalid/realm"
    let unknown = try await cli.run(["providers", "add", "x", "--issuer", nowhere])
    #expect(unknown.status == 7)
    #expect(
      unknown.stderr
        == "authtui: \(nowhere) could not be discovered: Cannot find authtui-test.invalid (DNS); "
        + "check the host name in the URL, then your network connection (and any proxy), and "
        + "try again.\n")
    await cli.stop()
  }

  /// `providers add URL`, the issuer where the id goes, is refused with the command that adds
  /// it under the id its host suggests; that command, run as written, adds it.
  @Test func anIssuerURLInPlaceOfTheIDGetsTheCommandThatAddsIt() async throws {
    let cli = try await CLIHarness.start()
    let issuer = Self.url(cli, "/dynamic")
    let url = try await cli.run(["providers", "add", issuer])
    #expect(url.status == 2)
    #expect(
      url.stderr
        == "authtui: \"\(issuer)\" is an issuer URL, not a provider id; give the provider an id "
        + "of your choice and the URL with --issuer, for example `authtui providers add dynamic "
        + "--issuer \(issuer)`\n")
    let quoted = try await cli.run(["providers", "add", "https://login.example.com/a?b&c"])
    #expect(quoted.status == 2)
    #expect(
      quoted.stderr.hasSuffix(
        "`authtui providers add example --issuer 'https://login.example.com/a?b&c'`\n"))
    #expect(await cli.stat("requests") == 0)
    let suggested = try #require(url.stderr.split(separator: "`").dropLast().last)
    let added = try await cli.run(
      Array(suggested.split(separator: " ").dropFirst().map(String.init)))
    #expect(added.status == 0, "\(added.stderr)")
    #expect(try Self.file(cli, "dynamic")["issuer"] as? String == issuer)
    await cli.stop()
  }

  /// `providers add PRESET --client-id ID`: the preset gets the client id registered for it,
  /// in its file beside what the file holds (as the UI's setup writes it), without a request;
  /// a second one needs --replace, a preset that wants a secret needs it, and --name or
  /// --flow are refused. The provider is then ready to sign in to.
  @Test func aPresetGetsItsClientIDFromTheCommandLine() async throws {
    let cli = try await CLIHarness.start()
    let config = cli.workspace.configPath
    func run(_ arguments: String...) async throws -> ChildProcess.Result {
      try await cli.run(["providers", "add"] + arguments, ["AUTHTUI_CONFIG_DIR": config + "2"])
    }
    let bare = try await run("simkl")
    #expect(bare.status == 2)
    #expect(
      bare.stderr
        == "authtui: simkl is a built-in preset: give it the client id you registered for it, "
        + "`authtui providers add simkl --client-id ID` (`authtui providers show simkl` says "
        + "where to register one)\n")
    let added = try await run("simkl", "--client-id", "my-simkl-app")
    #expect(added.status == 0, "\(added.stderr)")
    #expect(
      added.stdout
        == "Wrote ~/config2/providers/simkl.json: the simkl preset with your client id. Sign "
        + "in with `authtui login simkl`.\n")
    let written = try String(contentsOfFile: config + "2/providers/simkl.json", encoding: .utf8)
    #expect(written.contains(#""preset" : "simkl""#) && written.contains(#""my-simkl-app""#))
    #expect(Self.mode(config + "2/providers/simkl.json") & 0o777 == 0o600)
    let again = try await run("simkl", "--client-id", "other")
    #expect(again.status == 4)
    #expect(
      again.stderr
        == "authtui: the simkl preset has a client id already (my-simkl-app, in "
        + "~/config2/providers/simkl.json); `authtui providers add simkl --client-id other "
        + "--replace` replaces it\n")
    let againJSON = try await run("simkl", "--client-id", "other", "--json")
    #expect(againJSON.status == 4)
    #expect(againJSON.stdout.hasPrefix(#"{"error":"provider_exists","#), "\(againJSON.stdout)")
    let replaced = try await run("simkl", "--client-id", "other", "--replace", "--json")
    #expect(replaced.status == 0, "\(replaced.stderr)")
    #expect(
      replaced.stdout
        == #"{"id":"simkl","file":"~/config2/providers/simkl.json","preset":"simkl","#
        + #""client_id":"other","registered":false}"# + "\n")
    let show = try await cli.run(
      ["providers", "show", "simkl"], ["AUTHTUI_CONFIG_DIR": config + "2"])
    #expect(show.stdout.contains("state:        ready\n"))
    #expect(show.stdout.contains("client id:    other\n"))
    let secretless = try await run("google", "--client-id", "x.apps.googleusercontent.com")
    #expect(secretless.status == 2)
    #expect(
      secretless.stderr
        == "authtui: the google preset needs your application's client secret too: "
        + "--client-secret-file PATH, a file whose first line is the secret\n")
    let named = try await run("gitlab", "--client-id", "g", "--flow", "pkce")
    #expect(named.status == 2)
    #expect(named.stderr.hasPrefix("authtui: --name and --flow describe a provider of your own"))
    let noIssuer = try await run("mine", "--client-id", "m")
    #expect(noIssuer.status == 2)
    #expect(noIssuer.stderr.hasPrefix("authtui: 'providers add' needs --issuer URL"))
    // A client id that cannot be one is refused with why, in the command line's words.
    for (clientID, why) in [
      (" ", "the client id is empty: give the one the provider gave your application"),
      ("a b", "a client id has no spaces or control characters; paste just the id"),
      (
        String(repeating: "a", count: 600),
        "a client id has at most 512 characters, this one 600; paste just the id"
      ),
    ] {
      let refused = try await run("hivesigner", "--client-id", clientID)
      #expect(refused.status == 2)
      #expect(refused.stderr == "authtui: --client-id: \(why)\n")
    }
    #expect(!FileManager.default.fileExists(atPath: config + "2/providers/hivesigner.json"))
    #expect(await cli.stat("requests") == 0)
    await cli.stop()
  }

  @Test func anExistingIDExits4UnlessReplaced() async throws {
    let cli = try await CLIHarness.start()
    let issuer = Self.url(cli, "/oidc")
    let add = ["providers", "add", "work", "--issuer", issuer, "--client-id", "sandbox-client"]
    #expect(try await cli.run(add).status == 0)
    let again = try await cli.run(add)
    #expect(again.status == 4)
    #expect(
      again.stderr
        == "authtui: \(Self.shown("work")) exists already; add the provider under another "
        + "id, or replace the file: `authtui providers add work --issuer \(issuer) --client-id "
        + "sandbox-client --replace`\n")
    // The workspace's sandbox.json: an existing file, refused before any request.
    let requests = await cli.stat("requests")
    #expect(try await cli.run(["providers", "add", "sandbox", "--issuer", issuer]).status == 4)
    #expect(await cli.stat("requests") == requests)
    let preset = try await cli.run(["providers", "add", "gitlab", "--issuer", issuer])
    #expect(preset.status == 4)
    #expect(
      preset.stderr
        == "authtui: gitlab is a built-in preset; give your provider another id, such as "
        + "gitlab-2 (or give the preset your client id: `authtui providers add gitlab "
        + "--client-id ID`)\n")
    let replaced = try await cli.run(add + ["--name", "Replaced", "--replace"])
    #expect(replaced.status == 0, "\(replaced.stderr)")
    #expect(try Self.file(cli, "work")["name"] as? String == "Replaced")
    await cli.stop()
  }

  /// `--name` took control characters (ESC, a line break) and direction marks, which then
  /// reached every list of providers: refused before any request, naming the option, the
  /// character and what a name may hold. An emoji made with the zero-width joiner is a name.
  @Test func aNameWithCharactersThatDoNotShowIsRefused() async throws {
    let cli = try await CLIHarness.start()
    let add = ["providers", "add", "work", "--issuer", Self.url(cli, "/oidc"), "--client-id", "c"]
    let rule =
      ", a character that does not show (a control character, line break or direction "
      + "mark); a name is visible characters and spaces: leave it out, such as "
    for (name, said) in [
      ("Work\u{1B}[31m SSO", #""Work\u{1B}[31m SSO" holds U+1B"# + rule + #""Work[31m SSO""#),
      ("Work\nSSO", #""Work\u{A}SSO" holds U+A"# + rule + #""WorkSSO""#),
      ("\u{202E}OSS kroW", #""\u{202E}OSS kroW" holds U+202E"# + rule + #""OSS kroW""#),
      ("\u{200B}", #""\u{200B}" holds U+200B"# + rule + #""Work SSO""#),
    ] {
      let refused = try await cli.run(add + ["--name", name])
      #expect(refused.status == 2)
      #expect(refused.stderr == "authtui: --name \(said)\n")
    }
    #expect(await cli.stat("requests") == 0)
    #expect(!FileManager.default.fileExists(atPath: Self.path(cli, "work")))
    let emoji = try await cli.run(add + ["--name", "Dev 👩‍💻"])
    #expect(emoji.status == 0, "\(emoji.stderr)")
    #expect(try Self.file(cli, "work")["name"] as? String == "Dev 👩‍💻")
    await cli.stop()
  }

  /// The hint for a provider that exists already said `authtui providers add work …
  /// --replace`, which fails as pasted. It is the command as given with --replace, which runs
  /// as written (through a shell: a name and a folder with a space are quoted), a secret file
  /// by its path, never the secret.
  @Test func theHintForAnExistingProviderIsACommandThatRunsAsWritten() async throws {
    let cli = try await CLIHarness.start()
    let issuer = Self.url(cli, "/oidc")
    let config = cli.folder.file("my config")
    let secretFile = try cli.folder.write("not-a-secret-to-print-9c1d\n", to: "secret.txt")
    let add = [
      "--config", config, "providers", "add", "work", "--issuer", issuer, "--client-id",
      "sandbox-client", "--client-secret-file", secretFile, "--name", "Work SSO", "--flow", "pkce",
      "--json",
    ]
    #expect(try await cli.run(add).status == 0)
    let again = try await cli.run(add)
    #expect(again.status == 4)
    let command =
      "authtui --config '\(config)' providers add work --issuer \(issuer) --client-id "
      + "sandbox-client --client-secret-file \(secretFile) --name 'Work SSO' --flow pkce --json "
      + "--replace"
    #expect(
      again.stderr
        == "authtui: ~/my config/providers/work.json exists already; add the provider under "
        + "another id, or replace the file: `\(command)`\n")
    #expect(!(again.stdout + again.stderr).contains("not-a-secret-to-print-9c1d"))
    let run = Products.authtui + command.dropFirst("authtui".count)
    let replaced = try await cli.run(["-c", run], executable: "/bin/sh")
    #expect(replaced.status == 0, "\(replaced.stderr)")
    #expect(replaced.stdout.hasPrefix(#"{"id":"work","file":"~/my config/providers/work.json","#))
    let file = try JSONSerialization.jsonObject(
      with: Data(contentsOf: URL(fileURLWithPath: config + "/providers/work.json")))
    #expect((file as? [String: Any])?["name"] as? String == "Work SSO")
    await cli.stop()
  }

  @Test func makesTheConfigurationFolderPrivateWhenItIsMissing() async throws {
    let cli = try await CLIHarness.start()
    let config = cli.folder.file("fresh/authtui")
    let added = try await cli.run(
      ["providers", "add", "work", "--issuer", Self.url(cli, "/oidc"), "--client-id", "c"],
      ["AUTHTUI_CONFIG_DIR": config])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(Self.mode(config + "/providers") == 0o700)
    #expect(Self.mode(config + "/providers/work.json") == 0o600)
    await cli.stop()
  }

  /// A discovery that fails (the server down, a URL with no metadata) writes nothing: the
  /// providers folder (and the configuration folder above it) made for the write check before
  /// it are gone again, and an existing configuration folder keeps no empty providers folder.
  @Test func aFailedDiscoveryLeavesNoFolderBehind() async throws {
    let cli = try await CLIHarness.start()
    let fresh = cli.folder.file("fresh/authtui")
    let existing = cli.folder.file("existing")
    try FileManager.default.createDirectory(
      atPath: existing, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    for (config, issuer) in [
      (fresh, "http://127.0.0.1:1/x"), (existing, "http://127.0.0.1:1/x"),
      (fresh, Self.url(cli, "/simkl-api")),
    ] {
      let failed = try await cli.run(
        ["providers", "add", "work", "--issuer", issuer], ["AUTHTUI_CONFIG_DIR": config])
      #expect(failed.status == 7, "\(failed.stderr)")
      #expect(!FileManager.default.fileExists(atPath: config + "/providers"), "\(config)")
    }
    #expect(!FileManager.default.fileExists(atPath: fresh))
    #expect(!FileManager.default.fileExists(atPath: cli.folder.file("fresh")))
    #expect(FileManager.default.fileExists(atPath: existing))
    await cli.stop()
  }

  @Test func theAddressOfADiscoveryDocumentIsRefusedNamingItsIssuer() async throws {
    let cli = try await CLIHarness.start()
    let issuer = Self.url(cli, "/oidc")
    let added = try await cli.run([
      "providers", "add", "wk", "--issuer", issuer + "/.well-known/openid-configuration",
    ])
    #expect(added.status == 2)
    #expect(
      added.stderr
        == "authtui: --issuer \(issuer)/.well-known/openid-configuration is the address of a "
        + "discovery document, not an issuer: give the issuer it belongs to, \(issuer)\n")
    #expect(await cli.stat("requests") == 0)
    await cli.stop()
  }

  @Test func removeDeletesTheFileAndItsRegistrationUnlessAccountsRemain() async throws {
    let cli = try await CLIHarness.start()
    #expect(
      try await cli.run(["providers", "add", "dyn", "--issuer", Self.url(cli, "/dynamic")])
        .status == 0)
    try await cli.login("dyn")
    let refused = try await cli.run(["providers", "remove", "dyn"])
    #expect(refused.status == 1)
    #expect(
      refused.stderr
        == "authtui: the vault holds an account of dyn (dyn/alice); sign it out first "
        + "(`authtui logout dyn/alice`), or remove the provider anyway with --force\n")
    #expect(FileManager.default.fileExists(atPath: Self.path(cli, "dyn")))
    // Through a running agent, with no passphrase that opens the vault.
    let agent = try await AgentProcess.start(cli)
    let wrong: [String: String?] = ["AUTHTUI_PASSPHRASE": "not the passphrase"]
    #expect(try await cli.run(["providers", "remove", "dyn"], wrong).stderr == refused.stderr)
    #expect(await agent.stop().status == 0)
    let forced = try await cli.run(["providers", "remove", "dyn", "--force"])
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(
      forced.stdout
        == "Removed \(Self.shown("dyn")); its registration at the server was deleted too.\n")
    #expect(!FileManager.default.fileExists(atPath: Self.path(cli, "dyn")))
    #expect(await cli.stat("registration_deletions") == 1)
    // The account left behind is said to need attention, with its removal.
    let status = try await cli.run(["status"])
    #expect(status.status == 1)
    #expect(
      status.stdout.contains(
        "dyn/alice: its provider dyn is not configured any more, so its token is neither "
          + "refreshed nor revoked: add the provider back, or remove the account\n"
          + "  fix: authtui logout 'dyn/alice' --local-only"),
      "\(status.stdout)")
    // `list` no longer says it is refreshed, and says why, from the vault and from an agent.
    let note =
      "authtui: dyn/alice's provider dyn is not configured any more, so its token is neither "
      + "refreshed nor revoked: add the provider back, or remove the account with `authtui "
      + "logout 'dyn/alice' --local-only`\n"
    let list = try await cli.run(["list", "--json"])
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.contains(#""refreshable":false"#), "\(list.stdout)")
    #expect(list.stderr == note)
    let listingAgent = try await AgentProcess.start(cli)
    let table = try await cli.run(["list"], wrong)
    #expect(table.status == 0, "\(table.stderr)")
    #expect(
      table.stdout.contains("dyn/alice") && !table.stdout.contains(" yes "), "\(table.stdout)")
    #expect(table.stderr == note)
    #expect(await listingAgent.stop().status == 0)
    let gone = try await cli.run(["providers", "remove", "dyn"])
    #expect(gone.status == 4)
    let preset = try await cli.run(["providers", "remove", "hivesigner", "--force"])
    #expect(preset.status == 0)
    #expect(preset.stdout == "Removed \(Self.shown("hivesigner")).\n")
    await cli.stop()
  }

  /// A damaged account of the provider keeps it too, named as `list` names it, with the
  /// command that removes it; a label that is no plain shell word is quoted.
  @Test func removeNamesDamagedAccountsWithTheCommandThatRemovesThem() async throws {
    let cli = try await CLIHarness.start()
    #expect(
      try await cli.run(["providers", "add", "dyn", "--issuer", Self.url(cli, "/dynamic")])
        .status == 0)
    try await cli.login("dyn", as: "carol", ["--label", "my work"])
    try await cli.login("dyn", as: "bob")
    let plain = try await cli.run(["providers", "remove", "dyn"])
    #expect(
      plain.stderr
        == "authtui: the vault holds accounts of dyn (dyn/bob, dyn/my work); sign them out "
        + "first (`authtui logout dyn/bob`), or remove the provider anyway with --force\n")
    try await VaultFileEditor.flipBit(
      inCell: "access_token", ofAccount: 2, vaultAt: cli.workspace.vaultPath)
    let refused = try await cli.run(["providers", "remove", "dyn"])
    #expect(refused.status == 1)
    #expect(
      refused.stderr
        == "authtui: the vault holds accounts of dyn (dyn/my work, #2 (dyn/bob)); sign them "
        + "out first (`authtui logout 'dyn/my work'`), or remove the provider anyway with "
        + "--force\n")
    let removed = try await cli.run(["logout", "dyn/my work"])
    #expect(removed.status == 0, "\(removed.stderr)")
    let damaged = try await cli.run(["providers", "remove", "dyn"])
    #expect(
      damaged.stderr
        == "authtui: the vault holds an account of dyn (#2 (dyn/bob)); sign it out first "
        + "(`authtui logout '#2' --local-only`), or remove the provider anyway with --force\n")
    // The agent says the same of the damaged row.
    let agent = try await AgentProcess.start(cli)
    let wrong: [String: String?] = ["AUTHTUI_PASSPHRASE": "not the passphrase"]
    #expect(try await cli.run(["providers", "remove", "dyn"], wrong).stderr == damaged.stderr)
    #expect(await agent.stop().status == 0)
    #expect(try await cli.run(["logout", "#2", "--local-only"]).status == 0)
    let done = try await cli.run(["providers", "remove", "dyn"])
    #expect(done.status == 0, "\(done.stderr)")
    await cli.stop()
  }

  /// `providers add ID --replace` over a provider authtui had registered left that
  /// registration at the server, with nothing left to delete it with (its token was in the
  /// file written over). Once the new file is written the old registration is deleted, as
  /// `providers remove` deletes one; when the server cannot, the new file stays, and the
  /// command says so and exits 7, as `remove` does. A replacement that names the registered
  /// client itself keeps its registration.
  @Test func replacingARegisteredProviderDeletesTheOldRegistration() async throws {
    let cli = try await CLIHarness.start()
    let add = ["providers", "add", "dyn", "--issuer", Self.url(cli, "/dynamic")]
    #expect(try await cli.run(add).status == 0)
    let first = try #require(try Self.file(cli, "dyn")["client_id"] as? String)
    let replaced = try await cli.run(add + ["--replace"])
    #expect(replaced.status == 0, "\(replaced.stderr)")
    #expect(replaced.stderr == "")
    let second = try #require(try Self.file(cli, "dyn")["client_id"] as? String)
    #expect(second != first)
    #expect(
      replaced.stdout.hasSuffix(
        "Wrote \(Self.shown("dyn")). Sign in with `authtui login dyn`.\nDeleted the "
          + "registration of the client \(first), which the replaced file held, at the server.\n"),
      "\(replaced.stdout)")
    #expect(await cli.stat("registrations") == 2)
    #expect(await cli.stat("registration_deletions") == 1)

    // The registered client given as --client-id: still in use, its registration kept.
    let same = try await cli.run(add + ["--client-id", second, "--replace"])
    #expect(same.status == 0, "\(same.stderr)")
    #expect(!same.stdout.contains("Deleted"), "\(same.stdout)")
    let kept = try Self.file(cli, "dyn")
    let address = try #require(kept["registration_client_uri"] as? String)
    #expect(address == Self.url(cli, "/dynamic/register/\(second)"))
    let token = try #require(kept["registration_access_token"] as? String)
    #expect(await cli.stat("registration_deletions") == 1)

    // The server cannot delete it: the new file stays; exit 7, the reason, never the token.
    let path = try #require(URL(string: address)).path
    await cli.hook("fault", #"{"path": "\#(path)", "kind": "status500", "count": 1}"#)
    let failed = try await cli.run(add + ["--replace", "--json"])
    #expect(failed.status == 7)
    let third = try #require(try Self.file(cli, "dyn")["client_id"] as? String)
    #expect(third != second)
    #expect(
      failed.stderr
        == "authtui: wrote \(Self.shown("dyn")), but the registration of the client \(second), "
        + "which the replaced file held, could not be deleted at the server: The provider "
        + "failed with HTTP 500; try again in a few minutes. The new file does not hold what "
        + "deleting it takes, so the registration stays there: the server's administrator can "
        + "remove it\n")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(failed.stdout.utf8)) as? [String: Any])
    #expect(object["client_id"] as? String == third)
    #expect(object["replaced_registration"] as? String == "failed")
    #expect(object["replaced_registration_code"] as? String == "server_error")
    #expect(!(failed.stdout + failed.stderr).contains(token))
    #expect(await cli.stat("registration_deletions") == 1)
    await cli.stop()
  }

  /// The accounts signed in through the replaced client need a new sign-in: standard error
  /// counts and names them, and --json lists them; without a passphrase variable or an agent
  /// they are not looked for (no prompt), and it says so.
  @Test func replacingARegisteredProviderNamesTheAccountsOfTheOldClient() async throws {
    let cli = try await CLIHarness.start()
    let add = ["providers", "add", "dyn", "--issuer", Self.url(cli, "/dynamic")]
    #expect(try await cli.run(add).status == 0)
    await cli.hook("settings", #"{"profile": "dynamic"}"#)
    try await cli.login("dyn", as: "alice")
    try await cli.login("dyn", as: "bob")
    let replaced = try await cli.run(add + ["--replace"])
    #expect(replaced.status == 0, "\(replaced.stderr)")
    #expect(
      replaced.stderr
        == "authtui: 2 accounts of dyn (alice, bob) were signed in through the old client and "
        + "need `authtui login dyn --label LABEL` again\n")

    let json = try await cli.run(add + ["--replace", "--json"])
    #expect(json.status == 0, "\(json.stderr)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["old_client_accounts"] as? [String] == ["dyn/alice", "dyn/bob"])
    #expect(object["replaced_registration"] as? String == "deleted")

    #expect(try await cli.run(["logout", "dyn/bob", "--local-only"]).status == 0)
    let locked = try await cli.run(add + ["--replace", "--json"], ["AUTHTUI_PASSPHRASE": nil])
    #expect(locked.status == 0, "\(locked.stderr)")
    #expect(
      locked.stderr
        == "authtui: accounts of dyn signed in through the old client need `authtui login dyn "
        + "--label LABEL` again; they were not looked for: the vault is locked (no agent runs, "
        + "and no passphrase variable is set) (`authtui list` shows them)\n")
    let unknown = try #require(
      try JSONSerialization.jsonObject(with: Data(locked.stdout.utf8)) as? [String: Any])
    #expect(unknown["old_client_accounts"] is NSNull)

    // Through a running agent, no passphrase is needed.
    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    let viaAgent = try await cli.run(add + ["--replace"], ["AUTHTUI_PASSPHRASE": nil])
    #expect(viaAgent.status == 0, "\(viaAgent.stderr)")
    #expect(
      viaAgent.stderr
        == "authtui: 1 account of dyn (alice) was signed in through the old client and needs "
        + "`authtui login dyn --label alice` again\n")
    _ = await agent.stop()
    await cli.stop()
  }

  /// The file holds the registration access token: while the server cannot delete the
  /// registration, the file stays (exit 7), and only --force removes it all the same.
  @Test func removeKeepsTheFileWhileTheServerCannotDeleteTheRegistration() async throws {
    let cli = try await CLIHarness.start()
    #expect(
      try await cli.run(["providers", "add", "dyn", "--issuer", Self.url(cli, "/dynamic")])
        .status == 0)
    let file = try Self.file(cli, "dyn")
    let address = try #require(file["registration_client_uri"] as? String)
    let uri = try #require(URL(string: address))
    let client = try #require(file["client_id"] as? String)
    await cli.hook("fault", #"{"path": "\#(uri.path)", "kind": "status500", "count": 2}"#)
    let kept = try await cli.run(["providers", "remove", "dyn"])
    #expect(kept.status == 7)
    #expect(
      kept.stderr.hasPrefix(
        "authtui: the registration of \(client) at the server could not be deleted: "),
      "\(kept.stderr)")
    #expect(
      kept.stderr.hasSuffix(
        " The provider file was kept, with what deleting it takes: run `authtui providers "
          + "remove dyn` again later, or add --force to remove the file all the same and leave "
          + "the registration at the server\n"),
      "\(kept.stderr)")
    #expect(FileManager.default.fileExists(atPath: Self.path(cli, "dyn")))
    let forced = try await cli.run(["providers", "remove", "dyn", "--force"])
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(forced.stdout == "Removed \(Self.shown("dyn")).\n")
    #expect(forced.stderr.contains("and stays there: the server's administrator can remove it"))
    #expect(!FileManager.default.fileExists(atPath: Self.path(cli, "dyn")))
    #expect(await cli.stat("registration_deletions") == 0)
    await cli.stop()
  }

  @Test func showsOneProviderInFull() async throws {
    let cli = try await CLIHarness.start()
    let issuer = Self.url(cli, "/dynamic")
    #expect(try await cli.run(["providers", "add", "dyn", "--issuer", issuer]).status == 0)
    let file = try Self.file(cli, "dyn")
    let clientID = try #require(file["client_id"] as? String)
    let port = try #require(file["redirect_port"] as? Int)
    let shown = try await cli.run(["providers", "show", "dyn"])
    #expect(shown.status == 0, "\(shown.stderr)")
    #expect(
      shown.stdout == """
        dyn: dyn
          state:        ready
          file:         \(Self.shown("dyn"))
          flows:        pkce, device
          issuer:       \(issuer)
          client id:    \(clientID) (registered by authtui; `authtui providers remove dyn` deletes it)
          scopes:       openid profile email offline_access
          redirect URI: http://127.0.0.1:\(port)/callback

        Discovered \(issuer):
        \(Self.dynamicSummary)

        """)
    let typo = try await cli.run(["providers", "show", "dym"])
    #expect(typo.status == 4)
    #expect(typo.stderr == "authtui: no provider dym; did you mean `dyn`?\n")
    await cli.stop()
  }

  @Test func theStrictConsentModeSignsInWithOfflineAccess() async throws {
    let cli = try await CLIHarness.start()
    await cli.hook("settings", #"{"profile": "oidc", "strict_offline_access": true}"#)
    // Without prompt=consent the server shows an error page and never redirects: the
    // sign-in would wait out its timeout.
    let login = try await cli.login("sandbox", as: "alice", ["--timeout", "20"])
    #expect(login.stdout.hasPrefix("Signed in as sandbox/alice. "))
    #expect(login.stderr.contains("&prompt=consent"))
    await cli.stop()
  }

  @Test func aDenialWithoutThePromisedIssIsADeclinedSignIn() async throws {
    let cli = try await CLIHarness.start()
    await cli.hook("settings", #"{"profile": "oidc", "error_redirect_omits_iss": true}"#)
    let denied = try await cli.run(
      ["login", "sandbox"], ["AUTHTUI_TEST_BROWSER_ACTION": "deny"])
    #expect(denied.status == 6, "\(denied.stderr)")
    #expect(
      denied.stderr.hasSuffix(
        "authtui: The sign-in was declined at the provider (The user declined.); start a new "
          + "sign-in and approve access to try again. (The provider's answer lacked the `iss` "
          + "it promises (RFC 9207); no code was used.)\n"), "\(denied.stderr)")
    #expect(await cli.stat("exchanges") == 0)
    await cli.stop()
  }

  @Test func aServerWithMetadataOnlyAtTheRFC8414PathIsAddedAndSignedInTo() async throws {
    let cli = try await CLIHarness.start()
    await cli.hook("settings", #"{"profile": "dynamic", "openid_discovery": false}"#)
    let issuer = Self.url(cli, "/dynamic")
    let added = try await cli.run(["providers", "add", "dyn", "--issuer", issuer])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stdout.contains("\n  found:           RFC 8414 metadata\n"), "\(added.stdout)")
    let login = try await cli.login("dyn")
    #expect(login.stdout.hasPrefix("Signed in as dyn/alice. "))
    await cli.stop()
  }
}
