import Accounts
import AuthCore
import Crypto
import Foundation
import Providers
import Vault
import XCTest

@testable import Agent

/// `AgentService` answering `list`, `export` and `logout` over a vault of its own (no network:
/// the accounts are written straight into the vault).
final class AgentServiceTests: XCTestCase {
  static let failure: @Sendable (AgentRefusal) -> CommandFailure = {
    CommandFailure(exitStatus: 9, code: $0.code, message: $0.message)
  }

  /// A local caller.
  static let curl = AgentPeer(pid: 4242, name: "curl", executable: "/usr/bin/curl")

  static func makeService() async throws -> (AgentService, String, URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "agent-service-\(UUID().uuidString)")
    let vault = try await Vault.create(
      at: VaultLocation(path: folder.appendingPathComponent("vault.db").path),
      passphrase: Passphrase("test"),
      parameters: Scrypt.Parameters(cost: 1024, blockSize: 8, parallelism: 1))
    _ = try await vault.insert(
      NewAccount(
        providerID: "sandbox", label: "alice",
        tokens: TokenSet(
          accessToken: "stored-alice", scopes: ["openid"],
          expiresAt: Date(timeIntervalSince1970: 2_000_000_000),
          obtainedAt: Date(timeIntervalSince1970: 1_750_000_000))))
    let catalog = ProviderCatalog.load(
      from: ConfigurationLocation(directory: folder.appendingPathComponent("config")))
    let book = AccountBook(vault: vault, catalog: catalog, transport: URLSessionTransport())
    let path = vault.location.canonicalPath
    return (AgentService(book: book, vaultPath: path, failure: Self.failure), path, folder)
  }

  func testListsExportsAndSignsOutWhatTheVaultHolds() async throws {
    let (service, vault, folder) = try await Self.makeService()
    defer { try? FileManager.default.removeItem(at: folder) }
    func ask(_ operation: AgentRequest.Operation) async -> AgentResponse? {
      let line = await service.answer(
        .request(AgentRequest(operation: operation, vault: vault).line), from: Self.curl)
      return line.flatMap(AgentResponse.init(parsing:))
    }
    let expiry = Date(timeIntervalSince1970: 2_000_000_000)
    let listed = await ask(.list)
    XCTAssertEqual(
      listed,
      .listing(
        AgentListing(
          accounts: [
            .init(
              name: AccountName(provider: "sandbox", label: "alice"), expiresAt: expiry,
              obtainedAt: Date(timeIntervalSince1970: 1_750_000_000), scopes: ["openid"],
              tokenType: nil)
          ], damaged: [])))
    let exported = await ask(.export(account: "sandbox", startedAt: nil))
    XCTAssertEqual(
      exported,
      .export(
        AgentExport(
          account: "sandbox/alice", token: "stored-alice", expiresAt: expiry,
          variable: "SANDBOX_TOKEN")))
    let signedOut = await ask(.logout(account: "sandbox/alice", localOnly: true))
    XCTAssertEqual(
      signedOut,
      .signedOut(
        AgentSignOut(
          account: "sandbox/alice", damaged: false, revocation: .skipped, endSessionURL: nil,
          accessSettingsURL: nil)))
    let emptied = await ask(.list)
    XCTAssertEqual(emptied, .listing(AgentListing(accounts: [], damaged: [])))
    // A failure carries what the command line makes of it.
    guard
      case .failure(let missing)? = await ask(.logout(account: "sandbox/alice", localOnly: true))
    else { return XCTFail("a second logout found the account") }
    XCTAssertEqual(missing.code, "no_such_account")
    XCTAssertEqual(missing.exitStatus, 9)
  }

  func testAStoppingAgentDeclinesEveryRequestUnread() async throws {
    let (service, vault, folder) = try await Self.makeService()
    defer { try? FileManager.default.removeItem(at: folder) }
    await service.drain()
    let line = await service.answer(
      .request(
        AgentRequest(operation: .logout(account: "sandbox/alice", localOnly: true), vault: vault)
          .line),
      from: Self.curl)
    let answer = try XCTUnwrap(line.flatMap(AgentResponse.init(parsing:)))
    XCTAssertTrue(answer.declined)
    XCTAssertEqual(
      answer,
      .failure(
        CommandFailure(
          exitStatus: 9, code: "agent_stopping",
          message: "the agent is stopping; the command does without it")))
    // Nothing was done: the account is still there.
    let listing = try await service.book.listing()
    XCTAssertEqual(listing.accounts.map(\.name), ["sandbox/alice"])
  }
}

/// The agent's log of recent requests: who asked, what, and what it decided.
final class AgentRequestLogTests: XCTestCase {
  static let build01 = AgentPeer(pid: 77, name: "ssh", executable: "/usr/bin/ssh")

  func testEachRequestIsLoggedWithItsRequesterAndDecisionAndStatusListsThem() async throws {
    let (service, vault, folder) = try await AgentServiceTests.makeService()
    defer { try? FileManager.default.removeItem(at: folder) }
    func ask(_ request: AgentRequest, from peer: AgentPeer = AgentServiceTests.curl) async
      -> AgentResponse?
    {
      await service.answer(.request(request.line), from: peer).flatMap(AgentResponse.init(parsing:))
    }
    let token = AgentRequest.Operation.token(
      account: "sandbox/alice", minimumValidity: 60, startedAt: nil)
    let answered = await ask(AgentRequest(operation: token, vault: vault))
    XCTAssertEqual(answered, .token("stored-alice"))
    let unknown = await ask(
      AgentRequest(
        operation: .token(account: "nobody/x", minimumValidity: 60, startedAt: nil), vault: vault))
    guard case .failure(let missing)? = unknown else {
      return XCTFail("\(String(describing: unknown))")
    }
    XCTAssertEqual(missing.code, "no_such_account")
    // A forwarded request names the remote machine's vault path: answered for this vault.
    let forwarded = await ask(
      AgentRequest(operation: token, vault: "/home/remote/vault.db", host: "build01"),
      from: Self.build01)
    XCTAssertEqual(forwarded, .token("stored-alice"))
    // A local one naming another vault is declined, as before.
    let otherVault = await ask(AgentRequest(operation: token, vault: "/elsewhere/vault.db"))
    XCTAssertEqual(otherVault.map(\.declined), true)
    let unread = await service.answer(.request("not json"), from: AgentServiceTests.curl)
    XCTAssertNotNil(unread)
    // Neither `ping` nor `status` is kept.
    _ = await ask(AgentRequest(operation: .ping, vault: vault))
    guard case .status(let status)? = await ask(AgentRequest(operation: .status, vault: vault))
    else { return XCTFail("no status") }
    let curl = Requester.local(name: "curl", pid: 4242)
    let ssh = Requester.forwarded(via: "ssh", pid: 77, remoteHost: "build01")
    XCTAssertEqual(status.requests.map(\.operation), ["token", "token", "token", "token", nil])
    XCTAssertEqual(
      status.requests.map(\.account),
      ["sandbox/alice", "nobody/x", "sandbox/alice", "sandbox/alice", nil])
    XCTAssertEqual(status.requests.map(\.requester), [curl, curl, ssh, curl, curl])
    XCTAssertEqual(
      status.requests.map(\.decision),
      [
        .answered, .refused(code: "no_such_account", exit: 9), .answered,
        .refused(code: "other_vault", exit: 9), .refused(code: "bad_request", exit: 9),
      ])
    XCTAssertEqual(status.requests.map(\.allowed), [true, false, true, false, false])
    // Never a token: the whole answer is searched for the one handed out.
    XCTAssertFalse(AgentResponse.status(status).line.contains("stored-alice"))
  }

  func testTheLogKeepsTheLastHundredRequests() async throws {
    let (service, vault, folder) = try await AgentServiceTests.makeService()
    defer { try? FileManager.default.removeItem(at: folder) }
    for pid in Int32(1)...105 {
      _ = await service.answer(
        .request(AgentRequest(operation: .list, vault: vault).line),
        from: AgentPeer(pid: pid, name: "sh", executable: nil))
    }
    let records = await service.records
    XCTAssertEqual(records.count, AgentStatus.maximumRecords)
    XCTAssertEqual(records.first?.requester, .local(name: "sh", pid: 6))
    XCTAssertEqual(records.last?.requester, .local(name: "sh", pid: 105))
  }

  func testTheOldestRequestsGiveWaySoThatTheStatusAnswerFitsWhatAClientReads() async throws {
    let (service, vault, folder) = try await AgentServiceTests.makeService()
    defer { try? FileManager.default.removeItem(at: folder) }
    let long = String(repeating: "x", count: 1000)
    for number in 1...100 {
      _ = await service.answer(
        .request(
          AgentRequest(
            operation: .token(
              account: "nobody/\(number)-\(long)", minimumValidity: 60, startedAt: nil),
            vault: vault
          ).line),
        from: AgentServiceTests.curl)
    }
    let line = await service.answer(
      .request(AgentRequest(operation: .status, vault: vault).line), from: AgentServiceTests.curl)
    let answer = try XCTUnwrap(line)
    XCTAssertLessThanOrEqual(answer.utf8.count + 1, AgentConnection.maximumAnswerBytes)
    guard case .status(let status)? = AgentResponse(parsing: answer) else {
      return XCTFail(answer)
    }
    XCTAssertFalse(status.requests.isEmpty)
    XCTAssertLessThan(status.requests.count, 100)
    XCTAssertEqual(status.requests.last?.account, "nobody/100-\(long)")
    let records = await service.records
    XCTAssertEqual(records.count, 100)
  }

  func testAnSSHClientOrARequestNamingItsHostIsForwarded() {
    XCTAssertEqual(
      AgentPeer(pid: 7, name: "ssh", executable: nil).requester(saying: nil),
      .forwarded(via: "ssh", pid: 7, remoteHost: nil))
    // Renamed by prctl, still the ssh executable.
    XCTAssertEqual(
      AgentPeer(pid: 7, name: "worker", executable: "/usr/bin/ssh").requester(saying: nil),
      .forwarded(via: "worker", pid: 7, remoteHost: nil))
    // A request that says it is remote is treated as remote, whoever relays it.
    XCTAssertEqual(
      AgentPeer(pid: 8, name: "socat", executable: "/usr/bin/socat").requester(saying: "ci-7"),
      .forwarded(via: "socat", pid: 8, remoteHost: "ci-7"))
    XCTAssertEqual(
      AgentPeer(pid: 9, name: "sshd", executable: "/usr/sbin/sshd").requester(saying: nil),
      .local(name: "sshd", pid: 9))
    XCTAssertEqual(
      Requester.forwarded(via: "ssh", pid: 7, remoteHost: "build01").description,
      #"forwarded by ssh (pid 7) from "build01" (as the remote says)"#)
    XCTAssertEqual(Requester.local(name: "curl", pid: 42).description, "curl (pid 42)")
  }

  func testThePeerIsNamedFromProc() throws {
    let peer = AgentPeer.process(getpid())
    XCTAssertEqual(peer.pid, getpid())
    let comm = try String(contentsOfFile: "/proc/self/comm", encoding: .utf8)
    XCTAssertEqual(peer.name + "\n", comm)
    XCTAssertEqual(
      peer.executable, try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
  }
}
