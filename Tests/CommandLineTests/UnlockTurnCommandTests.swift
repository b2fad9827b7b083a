import Foundation
import TestSupport
import Testing
import Vault

/// Unlocks without an agent take turns at the key derivation (128 MiB and a core each with the
/// real parameters) through the vault: a burst waits, says so once, and goes on, instead of
/// being killed by the kernel when the memory runs out.
@Suite struct UnlockTurnCommandTests {
  /// No process takes more turns than the cores it may use: holding this many keeps every
  /// unlock waiting, whatever the memory.
  static var turnsThatFillAnyMachine: Int {
    let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    return max(
      UnlockCapacity.allowedCores(status: status) ?? 0,
      ProcessInfo.processInfo.activeProcessorCount)
  }

  @Test func tokenWaitsWhileEveryTurnIsHeldSaysSoOnceAndSucceedsOnceOneIsFree() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let stored = try #require(try await cli.storedToken("sandbox", "alice"))
    let vault = cli.workspace.vaultPath
    let held = Self.turnsThatFillAnyMachine
    let identity = LeaseHolderProcess.current.identity
    // The test holds them, as a live process (itself).
    let rows = (0..<held).map { _ in "(randomblob(16), \(getpid()), '\(identity)', 4102444800000)" }
    try await VaultFileEditor.sqlite(
      vault,
      "INSERT INTO unlock_turns (turn_token, holder_pid, holder_process, expires_at_ms) VALUES "
        + rows.joined(separator: ", "))

    var environment = cli.environment
    environment["AUTHTUI_NO_AGENT"] = "1"
    let token = try RunningChild(
      Products.authtui, ["token", "sandbox/alice"], environment: environment)
    try await waitUntil("token says that it waits for a turn") {
      await token.standardError().hasSuffix("\n")
    }
    let notice = await token.standardError()
    let others = held == 1 ? "1 other unlock" : "\(held) other unlocks"
    #expect(
      notice.hasPrefix("authtui: waiting for \(others) of the vault \(vault) to finish ("),
      "\(notice)")
    #expect(
      notice.hasSuffix(
        " at a time fit here); `authtui agent start` unlocks it once for all commands\n"))
    #expect(await token.bufferedLines().isEmpty)

    try await VaultFileEditor.sqlite(vault, "DELETE FROM unlock_turns")
    #expect(await token.wait(timeout: 60) == 0)
    #expect(await token.bufferedLines() == [stored])
    #expect(await token.standardError() == notice)
    #expect(try await VaultFileEditor.sqlite(vault, "SELECT count(*) FROM unlock_turns") == "0")
    await cli.stop()
  }

  @Test func manyUnlocksAtOnceWithTheRealKeyDerivationAllSucceedTakingTurns() async throws {
    let folder = try TemporaryDirectory()
    let location = VaultLocation(path: folder.file("data/vault.db"))
    let passphrase = "a passphrase for eight"
    let created = try await Vault.create(
      at: location, passphrase: Passphrase(passphrase), parameters: .interactive)
    await created.close()
    let watcher = try await Vault.open(at: location)
    let environment = ChildProcess.environment([
      "AUTHTUI_VAULT": location.fileURL.path, "AUTHTUI_CONFIG_DIR": folder.file("config"),
      "AUTHTUI_PASSPHRASE": passphrase, "AUTHTUI_NO_AGENT": "1",
      "AUTHTUI_AGENT_SOCKET": folder.file("agent/agent.sock"),
    ])
    let sampling = Task {
      var most = 0
      while !Task.isCancelled {
        most = max(most, (try? await watcher.unlockTurnsHeld()) ?? 0)
        try? await Task.sleep(for: .milliseconds(10))
      }
      return most
    }
    let results = try await withThrowingTaskGroup(of: ChildProcess.Result.self) { group in
      for _ in 0..<8 {
        group.addTask {
          try await ChildProcess.run(
            Products.authtui, ["list", "--json"], environment: environment, timeout: 300)
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    sampling.cancel()
    let most = await sampling.value
    #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
    #expect(results.allSatisfy { $0.stdout == "[]\n" }, "\(results.map(\.stdout))")
    #expect(most <= Self.turnsThatFillAnyMachine)
    #expect(try await watcher.unlockTurnsHeld() == 0)
    await watcher.close()
  }
}
