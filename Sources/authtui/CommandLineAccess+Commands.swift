import AgentProtocol
import Commands
import Session

extension CommandLineAccess {
  /// The command line's own ways: `VaultAccess`'s unlocks (the cached key's too) and sentences, `AgentLauncher`'s
  /// agent for `unlock_once`, `AccountAccess`'s book.
  static let commandLine = CommandLineAccess(
    unlock: { vault, source in
      do throws(CommandFailure) {
        // No warning on standard error: the UI's screen is up.
        try await VaultAccess.unlock(vault, with: source, prompt: "", warn: nil)
        return nil
      } catch {
        return error.message
      }
    },
    unlockWithCachedKey: { await VaultAccess.unlockWithCachedKey($0) },
    problem: { VaultAccess.failure($0).message },
    leaveAgentRunning: { vault, configuration, environment in
      await AgentLauncher.leaveRunningIfAsked(
        vault, configuration: configuration, environment: environment)
    },
    book: { AccountAccess.book(over: $0, catalog: $1) },
    agentQuestions: { vault, environment in
      await AgentQuestions.held(for: vault, environment: environment)
    },
    answerAgentQuestion: { vault, question, decision, environment in
      await AgentQuestions.answer(question, decision, for: vault, environment: environment)
    })
}
