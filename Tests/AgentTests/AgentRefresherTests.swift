import Accounts
import AuthCore
import Crypto
import Foundation
import Providers
import TestSupport
import Testing
import Vault

@testable import Agent

/// The agent's background refreshes as `agent status` sees them (`nextRefreshes`): the shared
/// schedule, the accounts other processes add and remove, and a failure's back-off. No account
/// here is due for an hour except the one that fails, which fails without the network.
@Suite struct AgentRefresherTests {
  static let passphrase = Passphrase("test")

  /// A vault with `accounts`, and an agent service over it whose book knows no provider.
  static func service(in folder: TemporaryDirectory, _ accounts: [NewAccount]) async throws
    -> (AgentService, [AccountRecord])
  {
    let vault = try await Vault.create(
      at: VaultLocation(path: folder.file("vault.db")), passphrase: passphrase,
      parameters: Scrypt.Parameters(cost: 1024, blockSize: 8, parallelism: 1))
    var records: [AccountRecord] = []
    for account in accounts { records.append(try await vault.insert(account)) }
    let nowhere = ConfigurationLocation(directory: URL(fileURLWithPath: folder.file("config")))
    let book = AccountBook(
      vault: vault, catalog: ProviderCatalog.load(from: nowhere), transport: NoNetwork())
    let service = AgentService(
      book: book, vaultPath: folder.file("vault.db"),
      failure: { CommandFailure(exitStatus: 1, code: "refused", message: "\($0)") })
    return (service, records)
  }

  static func account(
    _ label: String, refreshable: Bool = true, lifetime: TimeInterval = 3600,
    obtainedAt: Date = Date()
  ) -> NewAccount {
    NewAccount(
      providerID: "sandbox", label: label,
      tokens: TokenSet(
        accessToken: "access-\(label)", refreshToken: refreshable ? "refresh-\(label)" : nil,
        expiresAt: obtainedAt.addingTimeInterval(lifetime), obtainedAt: obtainedAt))
  }

  /// When the shared schedule refreshes `record`.
  static func due(_ record: AccountRecord) -> Date? {
    RefreshSchedule.refreshAt(
      obtainedAt: record.tokens.obtainedAt, expiresAt: record.tokens.expiresAt)
  }

  @Test func plansEachRefreshableAccountAndFollowsWhatOtherProcessesAddAndRemove() async throws {
    let folder = try TemporaryDirectory()
    let (service, records) = try await Self.service(
      in: folder, [Self.account("alice"), Self.account("bob", refreshable: false)])
    // The agent's start-up ends with the first look (it then gives back what starting
    // touched of its libraries, StartupPages): said once, however many looks follow.
    let (looks, lookSink) = AsyncStream<Void>.makeStream()
    let running = Task {
      await service.refresher.run(for: service, afterFirstLook: { lookSink.yield() }) { _ in }
    }
    try await waitUntil("the refresher planned alice") {
      await !service.nextRefreshes().isEmpty
    }
    // An hour's token, five minutes ahead; bob has nothing to refresh with.
    #expect(await service.nextRefreshes() == [records[0].id: try #require(Self.due(records[0]))])

    // Another process (another connection to the file) signs carol in and alice out.
    let other = try await Vault.open(at: VaultLocation(path: folder.file("vault.db")))
    try await other.unlock(with: Self.passphrase)
    let carol = try await other.insert(Self.account("carol", lifetime: 7200))
    try await other.delete(records[0].id)
    await other.close()
    try await waitUntil("the refresher followed the other process") {
      await service.nextRefreshes()[records[0].id] == nil
    }
    #expect(await service.nextRefreshes() == [carol.id: try #require(Self.due(carol))])

    running.cancel()
    await running.value
    lookSink.finish()
    var firstLooks = 0
    for await _ in looks { firstLooks += 1 }
    #expect(firstLooks == 1)
    await service.drain()
    await service.vault.close()
  }

  @Test func readsOnlyTheAccountsAnotherProcessWrote() async throws {
    let folder = try TemporaryDirectory()
    let (service, records) = try await Self.service(
      in: folder, [Self.account("alice"), Self.account("bob"), Self.account("carol")])
    let running = Task { await service.refresher.run(for: service) { _ in } }
    try await waitUntil("the refresher planned the three") {
      await service.nextRefreshes().count == 3
    }
    #expect(await service.refresher.rowsRead == 3)

    // Another process signs bob in again, with a token of two hours.
    let other = try await Vault.open(at: VaultLocation(path: folder.file("vault.db")))
    try await other.unlock(with: Self.passphrase)
    let renewed = try await other.updateTokens(
      of: records[1].id,
      to: TokenSet(
        accessToken: "access-bob-2", refreshToken: "refresh-bob-2",
        expiresAt: Date().addingTimeInterval(7200), obtainedAt: Date()))
    await other.close()
    let bobsDue = try #require(Self.due(renewed))
    try await waitUntil("the refresher followed the other process") {
      await service.nextRefreshes()[records[1].id] == bobsDue
    }
    #expect(
      await service.nextRefreshes() == [
        records[0].id: try #require(Self.due(records[0])), records[1].id: bobsDue,
        records[2].id: try #require(Self.due(records[2])),
      ])
    // Bob's row alone was read again.
    #expect(await service.refresher.rowsRead == 4)

    running.cancel()
    await running.value
    await service.drain()
    await service.vault.close()
  }

  @Test func backsOffAfterAFailedRefreshAndSaysSo() async throws {
    let folder = try TemporaryDirectory()
    // Obtained two hours ago, expired one hour ago: due at once. The book knows no provider
    // `sandbox`, so the refresh fails before any request.
    let (service, records) = try await Self.service(
      in: folder, [Self.account("alice", obtainedAt: Date().addingTimeInterval(-7200))])
    let lines = LineLog()
    let started = Date()
    let running = Task { await service.refresher.run(for: service) { lines.append($0) } }
    try await waitUntil("the refresh failed") { !lines.lines.isEmpty }
    let ended = Date()
    let retry = try #require(await service.nextRefreshes()[records[0].id])
    #expect(retry >= started.addingTimeInterval(RefreshSchedule.firstRetry))
    #expect(retry <= ended.addingTimeInterval(RefreshSchedule.firstRetry))
    #expect(
      lines.lines
        == [
          "authtui agent: could not refresh sandbox/alice ahead of its expiry (next attempt in "
            + "30 s): no provider sandbox; `authtui providers` lists them"
        ])
    running.cancel()
    await running.value
    await service.drain()
    await service.vault.close()
  }
}

/// A network that reaches no one.
struct NoNetwork: Transport {
  func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
    throw .cannotConnect(host: request.url.host ?? "nowhere")
  }
}

/// The lines a refresher reported, from whatever thread.
final class LineLog: @unchecked Sendable {
  // @unchecked: read and written only on `queue`.
  private let queue = DispatchQueue(label: "authtui.test.lines")
  private var stored: [String] = []

  var lines: [String] { queue.sync { stored } }

  func append(_ line: String) { queue.sync { stored.append(line) } }
}
