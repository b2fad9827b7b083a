import Accounts
import Foundation
import Vault

/// What the agent does with a request: one `AccountBook` over the vault it unlocked, shared by
/// every request, and the bookkeeping the idle timeout needs.
///
/// Requests run concurrently (the actor is reentrant across the book's awaits); the book and the
/// vault's refresh lease keep a refresh single-flight across them, the background refreshes of
/// `refresher` and every other authtui process, exactly as for `token` run on its own.
package actor AgentService {
  /// The account book over the unlocked vault, with the providers as last read
  /// (`replaceBook`: the provider files changed).
  package private(set) var book: AccountBook
  /// The unlocked vault, the same under every book.
  package nonisolated let vault: Vault
  /// The canonical path of that vault: requests for any other are declined.
  package nonisolated let vaultPath: String
  /// When it started (`agent status`'s "since").
  package nonisolated let startedAt = Date()
  /// Its idle timeout in seconds, nil for none (`agent status` reports it).
  package nonisolated let idleTimeout: Int?
  /// When its lifetime ends (`agent start --lifetime`), nil for none (`agent status` reports
  /// it; the command stops the agent then).
  package nonisolated let endsAt: Date?
  /// The background refreshes that keep every account fresh (`AgentRefresher.run`).
  package nonisolated let refresher = AgentRefresher()
  /// Where token requests held for a person wait (`agent start --confirm`).
  package nonisolated let confirmation: ConfirmationDesk
  /// Which token requests are held: `--confirm` and config.json's `agent.confirm`, the
  /// latter read again with the provider files.
  package private(set) var confirmationRules: ConfirmationRules
  private let pid = ProcessInfo.processInfo.processIdentifier
  private var lastRequest = Date()
  private var running = 0
  /// Background refreshes in flight: not requests (they do not hold off the idle timeout),
  /// but `drain` waits for them as for requests.
  private var refreshing = 0
  private var stopping = false
  private var drainWaiters: [CheckedContinuation<Void, Never>] = []
  /// The recent requests, oldest first, at most `AgentStatus.maximumRecords` (`agent
  /// status`): in memory only, never a token.
  private(set) var records: [AgentRequestRecord] = []

  /// The failure sent for a request that was not served; the command line decides its exit
  /// status (the one `authtui token` would have exited with).
  let failure: @Sendable (AgentRefusal) -> CommandFailure

  /// A service answering for `book`'s vault at `vaultPath`, its failures described by
  /// `failure`, stopped by its command after `idleTimeout` seconds without a request or at
  /// `endsAt`.
  package init(
    book: AccountBook, vaultPath: String, idleTimeout: Int? = nil, endsAt: Date? = nil,
    confirmation: ConfirmationDesk = ConfirmationDesk(
      window: AgentConnection.confirmationWindow, command: nil),
    rules: ConfirmationRules = ConfirmationRules(),
    failure: @escaping @Sendable (AgentRefusal) -> CommandFailure
  ) {
    self.confirmation = confirmation
    self.confirmationRules = rules
    self.book = book
    self.vault = book.vault
    self.vaultPath = vaultPath
    self.idleTimeout = idleTimeout
    self.endsAt = endsAt
    self.failure = failure
  }

  /// The answer line for what arrived on a connection from `peer`. Once the agent is
  /// stopping, a request is declined unread (`agent_stopping`): the caller does the work
  /// itself, and knows that the agent did none of it (a `logout` is not left in doubt).
  package func answer(_ delivery: AgentListener.Delivery, from peer: AgentPeer) async -> String? {
    guard !stopping else { return AgentResponse.failure(failure(.stopping)).line }
    switch delivery {
    case .tooLong:
      return refuseUnread(
        "the request is longer than \(AgentListener.maximumRequestBytes) bytes", from: peer)
    case .tooSlow:
      return refuseUnread(
        "no complete request line within \(Int(AgentListener.readTimeout)) s", from: peer)
    case .request(let line):
      running += 1
      // An open UI's look at the held requests, once a second, does not keep the agent from
      // its idle timeout.
      var activity = true
      defer {
        running -= 1
        if activity { lastRequest = Date() }
        resumeDrainWhenDone()
      }
      let request: AgentRequest
      do {
        request = try AgentRequest(parsing: line)
      } catch {
        return refuseUnread(error.reason, from: peer)
      }
      activity = request.operation != .questions
      let requester = peer.requester(saying: request.host)
      // A request that hands out a token may first wait for a person (`--confirm`).
      let held = await confirmation(of: request, for: requester, from: peer)
      let response: AgentResponse? =
        if let held, !held.allowed {
          AgentResponse.failure(failure(.notConfirmed(held, window: confirmation.window)))
        } else {
          await answer(request, from: requester)
        }
      record(request.operation, from: requester, response, confirmation: held)
      return response?.line
    }
  }

  /// The `bad_request` answer to a request that could not be read, logged.
  private func refuseUnread(_ reason: String, from peer: AgentPeer) -> String {
    let response = AgentResponse.failure(failure(.badRequest(reason)))
    record(nil, from: peer.requester(saying: nil), response)
    return response.line
  }

  /// Keeps `operation`'s outcome in the log of recent requests; `ping`, `status` and
  /// `questions`, which touch no account, are left out.
  private func record(
    _ operation: AgentRequest.Operation?, from requester: Requester, _ response: AgentResponse?,
    confirmation: ConfirmationDesk.Outcome? = nil
  ) {
    // The UI's look at the held requests, once a second, is not a request of its own either.
    if operation == .ping || operation == .status || operation == .questions { return }
    let decision: AgentRequestRecord.Decision
    switch response {
    case .failure(let failure)?:
      decision = .refused(code: failure.code, exit: failure.exitStatus)
    case nil: decision = .unanswered
    default: decision = .answered
    }
    records.append(
      AgentRequestRecord(
        time: Date().timeIntervalSince1970, operation: operation?.name,
        account: operation?.subject, requester: requester, decision: decision,
        confirmation: confirmation?.words))
    if records.count > AgentStatus.maximumRecords {
      records.removeFirst(records.count - AgentStatus.maximumRecords)
    }
  }

  /// Turns new requests and background refreshes away and returns once those under way are
  /// done: a refresh cut short after the provider rotated the refresh token would lose the new
  /// one, so the agent closes the vault only after this.
  package func drain() async {
    stopping = true
    // A request held for confirmation would keep the agent, and the vault's key, up to a
    // window longer: it is denied now.
    await confirmation.close()
    if running == 0 && refreshing == 0 { return }
    await withCheckedContinuation { drainWaiters.append($0) }
  }

  private func resumeDrainWhenDone() {
    guard running == 0, refreshing == 0 else { return }
    drainWaiters.forEach { $0.resume() }
    drainWaiters.removeAll()
  }

  /// The book for a background refresh about to start, counted until `endBackgroundRefresh`;
  /// nil once the agent is stopping (no refresh may start then).
  package func beginBackgroundRefresh() -> AccountBook? {
    guard !stopping else { return nil }
    refreshing += 1
    return book
  }

  /// A background refresh begun with `beginBackgroundRefresh` has ended.
  package func endBackgroundRefresh() {
    refreshing -= 1
    resumeDrainWhenDone()
  }

  /// Serves every request from now on with `book` (the same vault, the providers read
  /// again); requests and refreshes under way finish with the book they started with.
  package func replaceBook(_ book: AccountBook) {
    self.book = book
  }

  /// Holds token requests for the accounts config.json names now as `accounts` says (the
  /// `--confirm` mode stays).
  package func replaceConfirmationAccounts(_ accounts: [AccountName: ConfirmationMode]) {
    confirmationRules.accounts = accounts
  }

  /// When each account is next refreshed in the background (for `agent status`).
  package func nextRefreshes() async -> [AccountID: Date] {
    await refresher.nextRefreshes()
  }

  /// When the last request ended, or nil while one is being answered.
  package func idleSince() -> Date? {
    running == 0 ? lastRequest : nil
  }

  /// The answer to one request from `requester`; nil when the agent is stopping and a refresh
  /// could not be started any more (the caller then unlocks the vault itself).
  private func answer(_ request: AgentRequest, from requester: Requester) async -> AgentResponse? {
    // `status` is answered for any vault: its answer names the one served. A forwarded
    // request names the vault path of the machine it comes from, which means nothing here:
    // a socket forwarded to it is this agent's, so it is answered for this vault.
    guard request.vault == vaultPath || request.operation == .status || requester.isForwarded
    else {
      return .failure(failure(.otherVault(served: vaultPath, asked: request.vault)))
    }
    switch request.operation {
    case .ping:
      return .pong(pid: pid, vault: vaultPath)
    case .status:
      guard !requester.isForwarded else { return .failure(failure(.statusFromAfar)) }
      return await status()
    case .token(let name, let minimumValidity, let startedAt):
      do {
        let (token, shortfall) = try await book.accessTokenNotingShortfall(
          named: name, minimumValidity: TimeInterval(minimumValidity),
          startedAt: startedAt ?? Date())
        return shortfall.map { .notedToken(token, note: $0.message) } ?? .token(token)
      } catch .auth(.cancelled) {
        return nil
      } catch {
        return .failure(failure(.account(error)))
      }
    case .proof(let name, let minimumValidity, let startedAt, let method, let url):
      do {
        return .proof(
          try await book.proof(
            named: name, method: method, url: url, startedAt: startedAt ?? Date(),
            minimumValidity: TimeInterval(minimumValidity)))
      } catch .auth(.cancelled) {
        return nil
      } catch {
        return .failure(failure(.account(error)))
      }
    case .logout, .makeDefault, .clearDefault, .rename:
      // A forward lends tokens to use; changing or revoking accounts stays on this machine.
      guard !requester.isForwarded else { return .failure(failure(.managementFromAfar)) }
      return await answerAboutAccounts(request.operation)
    case .list, .export:
      return await answerAboutAccounts(request.operation)
    case .questions, .confirm:
      return await answerAboutConfirmations(request, from: requester)
    }
  }
}
