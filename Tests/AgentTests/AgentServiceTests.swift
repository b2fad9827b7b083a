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

  func makeService() async throws -> (AgentService, String, URL) {
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
    let (service, vault, folder) = try await makeService()
    defer { try? FileManager.default.removeItem(at: folder) }
    func ask(_ operation: AgentRequest.Operation) async -> AgentResponse? {
      let line = await service.answer(
        .request(AgentRequest(operation: operation, vault: vault).line))
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
    let (service, vault, folder) = try await makeService()
    defer { try? FileManager.default.removeItem(at: folder) }
    await service.drain()
    let line = await service.answer(
      .request(
        AgentRequest(operation: .logout(account: "sandbox/alice", localOnly: true), vault: vault)
          .line))
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
