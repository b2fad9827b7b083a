import AgentProtocol
import AgentWire
import Testing
import Vault

@testable import Agent

#if canImport(Glibc)
  import Glibc
#endif

/// The starter's side of the hand-over: what it makes of the agent's line.
@Suite struct AgentHandoverTests {
  static func key() throws -> VaultUnlockKey {
    try #require(VaultUnlockKey(bytes: Array(repeating: 7, count: VaultUnlockKey.byteCount)))
  }

  @Test func aRefusalSaidBeforeTheAgentReadTheKeyIsHeard() async throws {
    // The agent rejected a setting before it read the key, said why, and ended: the key cannot
    // be sent any more, and the starter said only "the agent stopped before it listened".
    let channel = try #require(AgentHandover.channel())
    defer { close(channel.starter) }
    let refusal = CommandFailure(
      exitCode: .failure, message: "agent.idle_timeout: must be a duration", code: "error")
    AgentHandover.report(.failure(refusal), on: channel.agent)
    close(channel.agent)
    let heard = await AgentHandover.hand(try Self.key(), over: channel.starter, timeout: 60)
    #expect(heard == .failed(refusal))
  }

  @Test func anAgentThatEndsWithoutALineHasEnded() async throws {
    let channel = try #require(AgentHandover.channel())
    defer { close(channel.starter) }
    close(channel.agent)
    #expect(await AgentHandover.hand(try Self.key(), over: channel.starter, timeout: 60) == .ended)
  }
}
