import Crypto
import Foundation
import TestSupport
import Testing
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// A sandbox provider (its `oidc` profile: rotating refresh tokens, reuse detection) shared by
/// fault-injection trials run one after another, so that its counters' changes belong to the
/// trial that made them.
struct FaultLane: Sendable {
  let workspace: SandboxWorkspace

  static func start() async throws -> FaultLane {
    let workspace = try await SandboxWorkspace.start()
    await workspace.hook("settings", #"{"profile": "oidc"}"#)
    return FaultLane(workspace: workspace)
  }

  /// A new trial: its own folder and vault (cheap scrypt), holding one account `bob` that no
  /// trial touches, to check that the others still read.
  func trial() async throws -> FaultTrial {
    let folder = try TemporaryDirectory()
    let vault = try await Vault.create(
      at: VaultLocation(path: folder.file("vault.db")),
      passphrase: Passphrase(SandboxWorkspace.passphrase),
      parameters: Scrypt.Parameters(cost: 1 << 10, blockSize: 8, parallelism: 1))
    _ = try await vault.insert(
      NewAccount(
        providerID: "sandbox", label: "bob", subject: "bob",
        tokens: TokenSet(
          accessToken: "bob-access", refreshToken: "bob-refresh",
          expiresAt: Date().addingTimeInterval(86400), obtainedAt: Date())))
    await vault.close()
    var changes = workspace.environmentChanges()
    changes["AUTHTUI_VAULT"] = folder.file("vault.db")
    changes["HOME"] = folder.path
    changes["AUTHTUI_PASSPHRASE"] = SandboxWorkspace.passphrase
    changes["AUTHTUI_AGENT_SOCKET"] = folder.file("agent.sock")
    changes["AUTHTUI_NO_AGENT"] = "1"
    return FaultTrial(lane: self, folder: folder, environment: ChildProcess.environment(changes))
  }

  func stat(_ name: String) async -> Int { await workspace.stat(name) }

  func stop() async { await workspace.stop() }
}

/// One vault of a fault-injection test, and the built binary run on it.
struct FaultTrial: Sendable {
  let lane: FaultLane
  let folder: TemporaryDirectory
  let environment: [String: String]

  var vaultPath: String { folder.file("vault.db") }

  /// Runs `authtui ARGUMENTS…`; with `fault` (`N:ERRNO` or `N+:ERRNO`) the vault's Nth write
  /// fails (`VaultFaults`).
  func run(
    _ arguments: [String], fault: String? = nil, _ changes: [String: String?] = [:]
  ) async throws -> ChildProcess.Result {
    var environment = self.environment
    environment["AUTHTUI_TEST_VAULT_FAULT"] = fault
    for (name, value) in changes { environment[name] = value }
    return try await ChildProcess.run(
      Products.authtui, arguments, environment: environment, timeout: 90)
  }

  /// Runs `authtui ARGUMENTS…` once without a fault and returns the vault operations it made,
  /// numbered from 1 (`N KIND FILE`), to sweep a fault over each.
  func operations(_ arguments: [String], _ changes: [String: String?] = [:]) async throws
    -> [String]
  {
    let log = folder.file("operations-\(UUID().uuidString).log")
    var withLog = changes
    withLog["AUTHTUI_TEST_VAULT_FAULT_LOG"] = log
    let result = try await run(arguments, withLog)
    guard result.status == 0 else {
      throw WorkspaceError("\(arguments) failed while counting: \(result.stderr)")
    }
    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map(String.init)
  }

  /// Signs in as `alice` (the rotating `oidc` profile).
  func signIn(sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let result = try await run(["login", "sandbox"], ["AUTHTUI_TEST_BROWSER_USER": "alice"])
    #expect(result.status == 0, "login: \(result.stderr)", sourceLocation: sourceLocation)
  }

  /// Makes the stored access token of `sandbox/LABEL` one that expired a minute ago, as if its
  /// lifetime had passed: the next `token` must refresh, however long the sign-in took (a
  /// lifetime of a second at the provider fails the sign-in's own userinfo call on a slow
  /// machine).
  func expireAccessToken(of label: String) async throws {
    let vault = try await Vault.open(at: VaultLocation(path: vaultPath))
    try await vault.unlock(with: Passphrase(SandboxWorkspace.passphrase))
    let record = try #require(try await vault.account(providerID: "sandbox", label: label))
    var tokens = record.tokens
    tokens.expiresAt = Date().addingTimeInterval(-60)
    _ = try await vault.updateTokens(of: record.id, to: tokens)
    await vault.close()
  }

  /// `list --json`, parsed; nil when it fails.
  func accounts() async throws -> [[String: Any]]? {
    let result = try await run(["list", "--json"])
    guard result.status == 0 else { return nil }
    return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
  }

  /// The `list --json` status of `account`, nil when it is not listed.
  func status(of account: String) async throws -> String? {
    try await accounts()?.first { $0["account"] as? String == account }?["status"] as? String
  }

  /// True when the provider accepts `token` (its userinfo endpoint answers 200).
  func providerAccepts(_ token: String) async -> Bool {
    let response = await RawHTTPClient.request(
      "GET", "/oidc/userinfo", port: lane.workspace.port,
      headers: ["Authorization: Bearer \(token)"])
    return response.status == 200
  }

  /// Checks what every trial must leave: the vault opens with its passphrase and the account no
  /// trial touched still reads.
  func expectVaultIntact(
    _ what: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let accounts = try await accounts()
    #expect(accounts != nil, "\(what): the vault no longer lists", sourceLocation: sourceLocation)
    let bob = accounts?.first { $0["account"] as? String == "sandbox/bob" }
    #expect(
      bob?["status"] as? String == "valid", "\(what): sandbox/bob reads \(String(describing: bob))",
      sourceLocation: sourceLocation)
  }
}

/// The index of the first operation of the last commit to the WAL in `operations` (the
/// `VaultFaults` log): the run of WAL writes that ends last, before the checkpoint at close.
func lastCommitStart(_ operations: [String]) -> Int? {
  let isWALWrite = { (line: String) in line.hasSuffix(" write vault.db-wal") }
  guard var index = operations.lastIndex(where: isWALWrite) else { return nil }
  while index > 0 && isWALWrite(operations[index - 1]) { index -= 1 }
  return index + 1
}

/// Runs `body` for each of `items`, at most `width` at a time; each worker takes the next item
/// when it is done with one (the lanes of a sweep).
func forEachBounded<Item: Sendable>(
  _ items: [Item], width: Int, _ body: @escaping @Sendable (Int, Item) async throws -> Void
) async throws {
  let queue = WorkQueue(items)
  try await withThrowingTaskGroup(of: Void.self) { group in
    for worker in 0..<width {
      group.addTask {
        while let item = await queue.next() { try await body(worker, item) }
      }
    }
    try await group.waitForAll()
  }
}

/// The items not yet taken.
private actor WorkQueue<Item: Sendable> {
  private var items: ArraySlice<Item>

  init(_ items: [Item]) { self.items = items[...] }

  func next() -> Item? { items.popFirst() }
}
