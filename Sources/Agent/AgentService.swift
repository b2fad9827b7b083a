import Accounts
import Foundation

/// What the agent does with a request: one `AccountBook` over the vault it unlocked, shared by
/// every request, and the bookkeeping the idle timeout needs.
///
/// Requests run concurrently (the actor is reentrant across the book's awaits); the book and the
/// vault's refresh lease keep a refresh single-flight across them and across every other
/// authtui process, exactly as for `token` run on its own.
package actor AgentService {
  /// The account book over the unlocked vault.
  package nonisolated let book: AccountBook
  /// The canonical path of that vault: requests for any other are declined.
  package nonisolated let vaultPath: String
  /// When it started (`agent status`'s "since").
  package nonisolated let startedAt = Date()
  /// Its idle timeout in seconds, nil for none (`agent status` reports it).
  package nonisolated let idleTimeout: Int?
  private let pid = ProcessInfo.processInfo.processIdentifier
  private var lastRequest = Date()
  private var running = 0
  private var stopping = false
  private var drainWaiters: [CheckedContinuation<Void, Never>] = []

  /// The failure sent for a request that was not served; the command line decides its exit
  /// status (the one `authtui token` would have exited with).
  let failure: @Sendable (AgentRefusal) -> AgentFailure

  /// A service answering for `book`'s vault at `vaultPath`, its failures described by `failure`.
  package init(
    book: AccountBook, vaultPath: String, idleTimeout: Int? = nil,
    failure: @escaping @Sendable (AgentRefusal) -> AgentFailure
  ) {
    self.book = book
    self.vaultPath = vaultPath
    self.idleTimeout = idleTimeout
    self.failure = failure
  }

  /// The answer line for what arrived on a connection. Once the agent is stopping, a request is
  /// declined unread (`agent_stopping`): the caller does the work itself, and knows that the
  /// agent did none of it (a `logout` is not left in doubt).
  package func answer(_ delivery: AgentListener.Delivery) async -> String? {
    guard !stopping else { return AgentResponse.failure(failure(.stopping)).line }
    switch delivery {
    case .tooLong:
      return AgentResponse.failure(
        failure(
          .badRequest("the request is longer than \(AgentListener.maximumRequestBytes) bytes"))
      ).line
    case .tooSlow:
      return AgentResponse.failure(
        failure(.badRequest("no complete request line within \(Int(AgentListener.readTimeout)) s"))
      ).line
    case .request(let line):
      running += 1
      defer {
        running -= 1
        lastRequest = Date()
        if running == 0 {
          drainWaiters.forEach { $0.resume() }
          drainWaiters.removeAll()
        }
      }
      return await answer(line)?.line
    }
  }

  /// Turns new requests away and returns once those being answered are done: a refresh cut
  /// short after the provider rotated the refresh token would lose the new one, so the agent
  /// closes the vault only after this.
  package func drain() async {
    stopping = true
    if running == 0 { return }
    await withCheckedContinuation { drainWaiters.append($0) }
  }

  /// When the last request ended, or nil while one is being answered.
  package func idleSince() -> Date? {
    running == 0 ? lastRequest : nil
  }

  /// The answer to one request line; nil when the agent is stopping and a refresh could not be
  /// started any more (the caller then unlocks the vault itself).
  private func answer(_ line: String) async -> AgentResponse? {
    let request: AgentRequest
    do {
      request = try AgentRequest(parsing: line)
    } catch {
      return .failure(failure(.badRequest(error.reason)))
    }
    // `status` is answered for any vault: its answer names the one served.
    guard request.vault == vaultPath || request.operation == .status else {
      return .failure(failure(.otherVault(served: vaultPath, asked: request.vault)))
    }
    switch request.operation {
    case .ping:
      return .pong(pid: pid, vault: vaultPath)
    case .status:
      return await status()
    case .token(let name, let minimumValidity, let startedAt):
      do {
        let account = try await book.account(named: name)
        return .token(
          try await book.accessToken(
            for: account.id, minimumValidity: TimeInterval(minimumValidity),
            startedAt: startedAt ?? Date()))
      } catch .auth(.cancelled) {
        return nil
      } catch {
        return .failure(failure(.account(error)))
      }
    case .list, .export, .logout:
      return await answerAboutAccounts(request.operation)
    }
  }
}
