import Crypto
import Foundation
import Sandbox
import TestSupport
import Testing
import Vault

/// DPoP-bound accounts (RFC 9449) from the built binaries against `authtui-sandbox`: sign-in
/// (PKCE and device) with a key of the account's own, refreshed and revoked with proofs of the
/// same key, the sandbox's nonce answered once per process, `token --header --for` giving
/// headers its userinfo accepts (with the agent and without), a replayed proof refused by the
/// sandbox, and `export` and `git-credential` refusing a bound token. The private key is in no
/// output and in no file but the vault.
@Suite struct DPoPCommandTests {
  static let bypass: [String: String?] = ["AUTHTUI_NO_AGENT": "1"]

  /// A harness whose sandbox binds tokens to DPoP keys, with a mandatory nonce when `nonce`.
  static func start(nonce: Bool) async throws -> CLIHarness {
    let cli = try await CLIHarness.start()
    let response = await cli.hook(
      "settings", #"{"profile": "oidc", "dpop": "required", "dpop_nonce": \#(nonce)}"#)
    #expect(response.status == 200, "\(response.body)")
    return cli
  }

  /// The account's key, read from the vault the way authtui reads it.
  static func key(of account: String, in cli: CLIHarness) async throws -> P256SigningKey {
    let parts = account.split(separator: "/").map(String.init)
    return try await cli.workspace.withVault { vault in
      let record = try #require(try await vault.account(providerID: parts[0], label: parts[1]))
      return try #require(try await vault.dpopKey(of: record.id))
    }
  }

  /// The scheme `exec` passes on in AUTHTUI_TOKEN_TYPE.
  static func tokenType(of account: String, in cli: CLIHarness) async throws -> String {
    let result = try await cli.run(
      ["exec", account, "--", "sh", "-c", #"printf %s "$AUTHTUI_TOKEN_TYPE""#], bypass)
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout
  }

  @Test func aPKCESignInBindsTheTokensAndRefreshAndRevocationProveTheSameKey() async throws {
    let cli = try await Self.start(nonce: true)
    var outputs: [ChildProcess.Result] = []
    outputs.append(try await cli.login("sandbox"))
    // The code exchange was asked for the nonce once; the identity request then had it.
    #expect(await cli.stat("dpop_nonce_challenges") == 1)
    #expect(await cli.stat("refused_dpop_proofs") == 0)
    #expect(await cli.stat("dpop_proofs") >= 2)
    #expect(try await Self.tokenType(of: "sandbox/alice", in: cli) == "DPoP")
    let key = try await Self.key(of: "sandbox/alice", in: cli)

    // A refresh forced by a validity longer than the token's: proven with the same key (the
    // sandbox refuses a key change), the nonce asked for once in this process.
    let refreshed = try await cli.run(
      ["token", "sandbox/alice", "--min-valid", "7200"], Self.bypass)
    outputs.append(refreshed)
    #expect(refreshed.status == 0, "\(refreshed.stderr)")
    #expect(await cli.stat("refreshes") == 1)
    #expect(await cli.stat("dpop_nonce_challenges") == 2)
    #expect(await cli.stat("refused_dpop_proofs") == 0)
    #expect(try await Self.key(of: "sandbox/alice", in: cli).thumbprint == key.thumbprint)

    // Sign-out revokes the refresh and the access token, each with a proof.
    let signedOut = try await cli.run(["logout", "sandbox/alice"], Self.bypass)
    outputs.append(signedOut)
    #expect(signedOut.status == 0, "\(signedOut.stderr)")
    #expect(await cli.stat("revocations") == 2)
    #expect(await cli.stat("dpop_nonce_challenges") == 3)
    #expect(await cli.stat("refused_dpop_proofs") == 0)
    let left = try await cli.workspace.withVault { vault in
      try await vault.listAccounts().accounts
    }
    #expect(left.isEmpty)
    try Self.expectKeyNowhere(key, outputs: outputs, in: cli)
    await cli.stop()
  }

  @Test func processesAskingAtOnceShareOneRefreshProvenWithTheAccountsKey() async throws {
    let cli = try await Self.start(nonce: true)
    try await cli.signInWithATokenRunningLow()
    let key = try await Self.key(of: "sandbox/alice", in: cli)
    let outputs = try await cli.runAtOnce(4, ["token", "sandbox/alice"]) { _ in Self.bypass }
    // One refresh for all (the vault's lease), with a proof of the same key: the sandbox
    // refuses a refresh token proven with any other.
    await cli.expectOneSharedRefresh(outputs)
    #expect(await cli.stat("refused_dpop_proofs") == 0)
    #expect(try await Self.key(of: "sandbox/alice", in: cli).thumbprint == key.thumbprint)
    #expect(try await Self.tokenType(of: "sandbox/alice", in: cli) == "DPoP")
    await cli.stop()
  }

  @Test func aDeviceSignInBindsTheTokensToo() async throws {
    let cli = try await Self.start(nonce: true)
    let result = try await cli.run(
      ["login", "sandbox", "--flow", "device"], ["AUTHTUI_TEST_BROWSER_USER": "bob"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(await cli.stat("refused_dpop_proofs") == 0)
    #expect(await cli.stat("dpop_nonce_challenges") >= 1)
    #expect(try await Self.tokenType(of: "sandbox/bob", in: cli) == "DPoP")
    let key = try await Self.key(of: "sandbox/bob", in: cli)
    let refreshed = try await cli.run(["token", "sandbox/bob", "--min-valid", "7200"], Self.bypass)
    #expect(refreshed.status == 0, "\(refreshed.stderr)")
    #expect(await cli.stat("refreshes") == 1)
    #expect(await cli.stat("refused_dpop_proofs") == 0)
    try Self.expectKeyNowhere(key, outputs: [result, refreshed], in: cli)
    await cli.stop()
  }

  /// Sends the header lines `token --header --for` printed to the sandbox's userinfo.
  static func userinfo(_ headers: String, in cli: CLIHarness) async -> String {
    await RawHTTPClient.get(
      SandboxPaths.OIDC.userinfo, port: cli.workspace.port,
      headers: headers.split(separator: "\n").map(String.init))
  }

  @Test func headersForARequestAreAcceptedByTheUserinfoOnceWithTheAgentAndWithout() async throws {
    // Without a mandatory nonce: a resource server's nonce reaches only the program that
    // makes the request, never authtui (docs/dpop.md).
    let cli = try await Self.start(nonce: false)
    try await cli.login("sandbox")
    let key = try await Self.key(of: "sandbox/alice", in: cli)
    let url = "http://127.0.0.1:\(cli.workspace.port)\(SandboxPaths.OIDC.userinfo)"
    var outputs: [ChildProcess.Result] = []

    let alone = try await cli.run(
      ["token", "sandbox/alice", "--header", "--for", "GET", url], Self.bypass)
    outputs.append(alone)
    #expect(alone.status == 0, "\(alone.stderr)")
    let lines = alone.stdout.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first?.hasPrefix("Authorization: DPoP ") == true)
    #expect(lines.last?.hasPrefix("DPoP: ") == true)
    let answer = await Self.userinfo(alone.stdout, in: cli)
    #expect(RawHTTPClient.status(of: answer) == 200, "\(answer)")
    #expect(answer.contains("\"sub\""))
    // The same proof again: the sandbox has seen its jti.
    let replayed = await Self.userinfo(alone.stdout, in: cli)
    #expect(RawHTTPClient.status(of: replayed) == 401, "\(replayed)")
    #expect(replayed.contains("invalid_dpop_proof"))
    // A proof for another method is refused as well.
    let posted = try await cli.run(
      ["token", "sandbox/alice", "--header", "--for", "POST", url], Self.bypass)
    #expect(RawHTTPClient.status(of: await Self.userinfo(posted.stdout, in: cli)) == 401)

    // Through the agent, with no passphrase: it signs, the key stays in it.
    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    let viaAgent = try await cli.run(
      ["token", "sandbox/alice", "--header", "--for", "get", url],
      ["AUTHTUI_PASSPHRASE": "not the passphrase"])
    outputs.append(viaAgent)
    #expect(viaAgent.status == 0, "\(viaAgent.stderr)")
    #expect(viaAgent.stdout != alone.stdout)
    let agentAnswer = await Self.userinfo(viaAgent.stdout, in: cli)
    #expect(RawHTTPClient.status(of: agentAnswer) == 200, "\(agentAnswer)")
    // The front answers it from the agent alone, as quickly as a plain `token`: a copy of it
    // without the full program beside it.
    let front = try await FrontCommandTests.loneFront(in: cli)
    let fromFront = try await cli.run(
      ["token", "sandbox/alice", "--header", "--for", "GET", url],
      ["AUTHTUI_PASSPHRASE": "not the passphrase"], executable: front)
    #expect(fromFront.status == 0, "\(fromFront.stderr)")
    #expect(fromFront.stderr.isEmpty)
    let frontAnswer = await Self.userinfo(fromFront.stdout, in: cli)
    #expect(RawHTTPClient.status(of: frontAnswer) == 200, "\(frontAnswer)")
    outputs.append(fromFront)

    // --header alone cannot serve a bound token: it names --for.
    let bare = try await cli.run(["token", "sandbox/alice", "--header"], Self.bypass)
    #expect(bare.status == 1)
    #expect(bare.stderr.contains("--header --for METHOD URL"))
    #expect(bare.stdout.isEmpty)
    #expect(await agent.stop().status == 0)
    try Self.expectKeyNowhere(key, outputs: outputs + [bare], in: cli)
    await cli.stop()
  }

  @Test func exportAndGitCredentialRefuseABoundTokenAndNameTheHeaderCommand() async throws {
    let cli = try await Self.start(nonce: false)
    try await cli.login("sandbox")
    let envFile = cli.folder.file("tokens.env")
    let exported = try await cli.run(
      ["export", "sandbox/alice", "--env-file", envFile], Self.bypass)
    #expect(exported.status == 1)
    #expect(exported.stderr.contains("DPoP-bound"))
    #expect(exported.stderr.contains("token sandbox/alice --header --for METHOD URL"))
    #expect(!FileManager.default.fileExists(atPath: envFile))

    try cli.folder.write(
      #"{"git": {"https://git.example.com": "sandbox/alice"}}"#, to: "config/config.json")
    let git = try await cli.run(
      ["git-credential", "get"], Self.bypass, input: "protocol=https\nhost=git.example.com\n\n")
    #expect(git.status == 1)
    #expect(git.stderr.contains("token sandbox/alice --header --for METHOD URL"))
    #expect(!git.stdout.contains("password="))

    // The same through the agent.
    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    let viaAgent = try await cli.run(["export", "sandbox/alice", "--env-file", envFile])
    #expect(viaAgent.status == 1)
    #expect(viaAgent.stderr == exported.stderr)
    #expect(await agent.stop().status == 0)
    await cli.stop()
  }

  /// `output` parsed as a JSON object.
  static func object(_ output: ChildProcess.Result) throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any],
      "\(output.stdout) \(output.stderr)")
  }

  @Test func listAndStatusShowABoundAccountAndItsKeysThumbprintWithTheAgentAndWithout()
    async throws
  {
    let cli = try await Self.start(nonce: false)
    try await cli.login("sandbox")
    let jkt = try await Self.key(of: "sandbox/alice", in: cli).thumbprint

    let listed = try await cli.run(["list", "--json"], Self.bypass)
    #expect(listed.status == 0, "\(listed.stderr)")
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    #expect(rows.count == 1)
    #expect(rows.first?["dpop_bound"] as? Bool == true)
    #expect(rows.first?["dpop_jkt"] as? String == jkt)

    let status = try await cli.run(["status", "--json"], Self.bypass)
    #expect(status.status == 0, "\(status.stderr)")
    let bound = try #require(try Self.object(status)["dpop_bound_accounts"] as? [[String: Any]])
    #expect(bound.count == 1)
    #expect(bound.first?["account"] as? String == "sandbox/alice")
    #expect(bound.first?["dpop_jkt"] as? String == jkt)
    let text = try await cli.run(["status"], Self.bypass)
    #expect(text.status == 0, "\(text.stderr)")
    #expect(
      text.stdout.contains(
        "DPoP-bound (use `authtui token ACCOUNT --header --for METHOD URL`): sandbox/alice"),
      "\(text.stdout)")

    // Through the agent: its list and status answers carry the same.
    let agent = try await AgentProcess.start(cli)
    #expect(agent.firstLine != nil)
    let viaAgent = ["AUTHTUI_PASSPHRASE": "not the passphrase"]
    let agentList = try await cli.run(["list", "--json"], viaAgent)
    #expect(agentList.status == 0, "\(agentList.stderr)")
    #expect(agentList.stdout == listed.stdout)
    let agentStatus = try await cli.run(["status", "--json"], viaAgent)
    #expect(agentStatus.status == 0, "\(agentStatus.stderr)")
    let answered = try Self.object(agentStatus)
    #expect((answered["vault"] as? [String: Any])?["state"] as? String == "unlocked_by_agent")
    let boundViaAgent = try #require(answered["dpop_bound_accounts"] as? [[String: Any]])
    #expect(boundViaAgent.first?["dpop_jkt"] as? String == jkt)
    let agentsOwn = try await cli.run(["agent", "status", "--json"], viaAgent)
    #expect(agentsOwn.status == 0, "\(agentsOwn.stderr)")
    let served = try #require(try Self.object(agentsOwn)["accounts"] as? [[String: Any]])
    #expect(served.first?["dpop_bound"] as? Bool == true)
    #expect(served.first?["dpop_jkt"] as? String == jkt)
    #expect(await agent.stop().status == 0)
    await cli.stop()
  }

  @Test func aBearerAccountGetsTheSameHeaderWithOrWithoutFor() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let plain = try await cli.run(["token", "sandbox/alice", "--header"], Self.bypass)
    #expect(plain.status == 0, "\(plain.stderr)")
    #expect(plain.stdout.hasPrefix("Authorization: Bearer "))
    let url = "http://127.0.0.1:\(cli.workspace.port)\(SandboxPaths.OIDC.userinfo)"
    let target = try await cli.run(
      ["token", "sandbox/alice", "--header", "--for", "GET", url], Self.bypass)
    #expect(target.status == 0, "\(target.stderr)")
    #expect(target.stdout == plain.stdout)
    #expect(try await Self.tokenType(of: "sandbox/alice", in: cli) == "Bearer")
    let rows = try await cli.accounts()
    #expect(rows.first?["dpop_bound"] as? Bool == false)
    #expect(rows.first.map { $0["dpop_jkt"] is NSNull } == true)
    let hasKey = try await cli.workspace.withVault { vault in
      let record = try #require(try await vault.account(providerID: "sandbox", label: "alice"))
      return try await vault.dpopKey(of: record.id) != nil
    }
    #expect(!hasKey)
    // --for is checked before anything else.
    let bad = try await cli.run(["token", "sandbox/alice", "--header", "--for", "GET", "nope"])
    #expect(bad.status == 2)
    let alone = try await cli.run(["token", "sandbox/alice", "--for", "GET", url])
    #expect(alone.status == 2)
    #expect(alone.stderr.contains("--for goes with --header"))
    await cli.stop()
  }

  /// The key's private scalar, in base64url (as a JWK's `d` would hold it) or hex, is in none
  /// of `outputs` and in no file of the workspace but the vault (where it is sealed).
  static func expectKeyNowhere(
    _ key: P256SigningKey, outputs: [ChildProcess.Result], in cli: CLIHarness,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let forms = [
      Base64URL.encode(key.rawRepresentation),
      key.rawRepresentation.map { String(format: "%02x", $0) }.joined(),
    ]
    for output in outputs {
      for form in forms {
        #expect(!output.stdout.contains(form), sourceLocation: sourceLocation)
        #expect(!output.stderr.contains(form), sourceLocation: sourceLocation)
      }
    }
    let raw = Data(key.rawRepresentation)
    let root = cli.folder.path
    let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
    for file in files {
      guard let data = FileManager.default.contents(atPath: root + "/" + file) else { continue }
      #expect(data.range(of: raw) == nil, "\(file)", sourceLocation: sourceLocation)
      for form in forms {
        #expect(data.range(of: Data(form.utf8)) == nil, "\(file)", sourceLocation: sourceLocation)
      }
    }
  }
}
