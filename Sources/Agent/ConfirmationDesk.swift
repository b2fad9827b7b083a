import Foundation

/// Where a token request the agent holds (`agent start --confirm`) waits for a person, and
/// what they answered: an open authtui UI (which asks `questions` and answers `confirm`),
/// else the program `AUTHTUI_CONFIRM_COMMAND` names, else nobody, and then the request is
/// denied. A question nobody answers within `window` is denied too.
///
/// "Allow for 15 minutes" is kept here, in memory, per account and requester (`scope`: who
/// asks, as far as the agent can tell: a local process by its executable, a forward by its
/// ssh session; `AgentPeer.confirmationScope`), and ends on time.
package actor ConfirmationDesk {
  /// What became of a held request.
  package enum Outcome: Sendable, Equatable {
    /// A person allowed it in the UI, once or for 15 minutes.
    case allowedInUI(ConfirmationDecision)
    /// The confirm command exited 0.
    case allowedByCommand
    /// An allowance for 15 minutes given before covers it, until then.
    case allowedEarlier(until: Date)
    /// A person denied it in the UI.
    case deniedInUI
    /// The confirm command exited with another status, or could not run: why, in words.
    case deniedByCommand(String)
    /// No UI was open and no confirm command is set.
    case nobodyToAsk
    /// Nobody answered within the window.
    case timedOut
    /// The agent was stopped while the request waited (`agent stop`, SIGTERM, its lifetime):
    /// it no longer answers for the vault, so nobody may allow the request.
    case agentStopped
    /// `ConfirmationDesk.mostHeld` requests were held already: this one was denied at once,
    /// rather than pile one more prompt on a person (a flood is refused, not approved).
    case tooManyHeld

    /// How the agent's log of requests says it (`agent status`).
    package var words: String {
      switch self {
      case .allowedInUI(.allowFifteenMinutes): return "allowed for 15 minutes in authtui"
      case .allowedInUI: return "allowed once in authtui"
      case .allowedByCommand: return "allowed by AUTHTUI_CONFIRM_COMMAND"
      case .allowedEarlier: return "allowed for 15 minutes earlier"
      case .deniedInUI: return "denied in authtui"
      case .deniedByCommand: return "denied by AUTHTUI_CONFIRM_COMMAND"
      case .nobodyToAsk: return "nobody to ask"
      case .timedOut: return "nobody answered in time"
      case .agentStopped: return "the agent stopped before anyone answered"
      case .tooManyHeld: return "too many requests held already"
      }
    }

    /// True for the three ways of allowing.
    package var allowed: Bool {
      switch self {
      case .allowedInUI(let decision): return decision != .deny
      case .allowedByCommand, .allowedEarlier: return true
      case .deniedInUI, .deniedByCommand, .nobodyToAsk, .timedOut, .agentStopped, .tooManyHeld:
        return false
      }
    }
  }

  /// Asks the confirm command about a question, for at most the given seconds: nil when it
  /// allowed (exit 0), else why not in words.
  package typealias Command = @Sendable (ConfirmationQuestion, TimeInterval) async -> String?

  /// How long a question waits for an answer (60 s; shorter in tests).
  package nonisolated let window: TimeInterval
  /// How long after its last `questions` a UI still counts as open.
  package static let openUIGrace: TimeInterval = 10
  /// How long a question left for a UI waits for the UI to take it (it asks once a second)
  /// before the confirm command, when there is one, is asked too: a UI that has just closed
  /// still counts as open for a while, and would otherwise keep the question to itself.
  package nonisolated let pickupGrace: TimeInterval
  private let command: Command?
  private let now: @Sendable () -> Date
  private var nextID = 1
  /// A question waiting for its answer: who it covers for 15 minutes, and its caller.
  private struct Waiting {
    let question: ConfirmationQuestion
    let scope: String
    let reply: CheckedContinuation<Outcome, Never>
  }
  private var waiting: [Int: Waiting] = [:]
  /// The confirm commands asking now, by question: `close` ends them.
  private var asking: [Int: Task<String?, Never>] = [:]
  /// Set by `close`: nothing more is asked, and nothing is allowed.
  private var closed = false
  private var allowances: [Allowance: Date] = [:]
  private var lastAskedByUI: Date?
  /// The questions a UI has taken (`questions`) since they were asked.
  private var taken: Set<Int> = []
  /// The requests held now, answered or not yet asked.
  private var held = 0
  /// The most requests held at once; more are denied at once (`tooManyHeld`).
  package static let mostHeld = 16
  /// True while a confirm command asks; the questions waiting for their turn.
  private var commandAsking = false
  private var commandTurns: [CheckedContinuation<Void, Never>] = []

  /// A desk whose questions wait `window` seconds, asking `command` when no UI is open, or
  /// when the UI has not taken a question within `pickupGrace` seconds.
  package init(
    window: TimeInterval, command: Command?, pickupGrace: TimeInterval = 3,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.window = window
    self.command = command
    self.pickupGrace = pickupGrace
    self.now = now
  }

  /// Holds the request for `account` by `requester` until a person answers or the window
  /// ends. `scope` names the requester for an allowance of 15 minutes.
  package func confirm(
    account: AccountName, requester: String, forwarded: Bool, scope: String
  ) async -> Outcome {
    if closed { return .agentStopped }
    let key = Allowance(account: account, scope: scope)
    if let until = allowances[key] {
      if until > now() { return .allowedEarlier(until: until) }
      allowances[key] = nil
    }
    guard held < Self.mostHeld else { return .tooManyHeld }
    held += 1
    defer { held -= 1 }
    let question = ConfirmationQuestion(
      id: nextID, account: account, requester: requester, forwarded: forwarded,
      deadline: now().addingTimeInterval(window))
    nextID += 1
    if uiIsOpen {
      let window = self.window
      let grace = pickupGrace
      return await withCheckedContinuation { reply in
        waiting[question.id] = Waiting(question: question, scope: scope, reply: reply)
        Task {
          try? await Task.sleep(for: .seconds(window))
          self.settle(question.id, with: .timedOut)
        }
        if command != nil {
          Task {
            try? await Task.sleep(for: .seconds(grace))
            await self.askCommandUnlessTaken(question)
          }
        }
      }
    }
    guard let command else { return .nobodyToAsk }
    return await ask(command, about: question) ?? .timedOut
  }

  /// Asks the confirm command about `question` in its turn, for what is left of the
  /// question's window: one command asks at a time, so a burst of held requests is one prompt
  /// after another, not a pile of them. For a question left for a UI (`waitingInUI`), nil when
  /// the UI has answered it by the time the turn comes.
  private func ask(
    _ command: @escaping Command, about question: ConfirmationQuestion, waitingInUI: Bool = false
  ) async -> Outcome? {
    if commandAsking {
      await withCheckedContinuation { commandTurns.append($0) }
    } else {
      commandAsking = true
    }
    defer { passCommandTurn() }
    // A command that allowed just as the agent began to stop allows nothing: the agent
    // hands out no token from then on.
    if closed { return .agentStopped }
    guard !waitingInUI || waiting[question.id] != nil else { return nil }
    // In whole seconds: a question asked at once gets the whole window.
    let remaining = min(window, question.deadline.timeIntervalSince(now()).rounded(.up))
    guard remaining >= 1 else { return .timedOut }
    let asked = Task { await command(question, remaining) }
    asking[question.id] = asked
    let refusal = await asked.value
    asking[question.id] = nil
    if closed { return .agentStopped }
    return refusal.map(Outcome.deniedByCommand) ?? .allowedByCommand
  }

  /// Lets the next question waiting for the confirm command have it.
  private func passCommandTurn() {
    if commandTurns.isEmpty {
      commandAsking = false
    } else {
      commandTurns.removeFirst().resume()
    }
  }

  /// Asks the confirm command about `question`, left for a UI that has not taken it within
  /// the pickup grace (closed since it last looked): its answer settles the question unless
  /// the UI answers first, which ends the command.
  func askCommandUnlessTaken(_ question: ConfirmationQuestion) async {
    guard let command, !closed, waiting[question.id] != nil, !taken.contains(question.id),
      let outcome = await ask(command, about: question, waitingInUI: true)
    else { return }
    settle(question.id, with: outcome)
  }

  /// The agent is stopping: every question waiting is answered `.agentStopped` at once (its
  /// caller is told so, rather than held while the agent keeps the vault's key up to a
  /// window longer), every confirm command asking is ended, and no question is asked again.
  package func close() {
    closed = true
    // The questions waiting for the confirm command's turn get it at once, and end.
    for turn in commandTurns { turn.resume() }
    commandTurns = []
    for id in Array(waiting.keys) { settle(id, with: .agentStopped) }
    for task in asking.values { task.cancel() }
  }

  /// The questions waiting now, oldest first; asking marks a UI as open.
  package func questions() -> [ConfirmationQuestion] {
    lastAskedByUI = now()
    taken.formUnion(waiting.keys)
    return waiting.values.map(\.question).sorted { $0.id < $1.id }
  }

  /// A person's answer to question `id`; false when no such question waits (answered
  /// already, or timed out).
  package func answer(_ id: Int, with decision: ConfirmationDecision) -> Bool {
    guard let entry = waiting[id] else { return false }
    if decision == .allowFifteenMinutes {
      allowances[Allowance(account: entry.question.account, scope: entry.scope)] =
        now().addingTimeInterval(ConfirmationDecision.standingAllowance)
    }
    settle(id, with: decision == .deny ? .deniedInUI : .allowedInUI(decision))
    return true
  }

  private var uiIsOpen: Bool {
    guard let lastAskedByUI else { return false }
    return now().timeIntervalSince(lastAskedByUI) <= Self.openUIGrace
  }

  private func settle(_ id: Int, with outcome: Outcome) {
    taken.remove(id)
    // A confirm command still asking about it (the UI answered first) is ended.
    asking.removeValue(forKey: id)?.cancel()
    guard let entry = waiting.removeValue(forKey: id) else { return }
    entry.reply.resume(returning: outcome)
  }

  /// What an allowance of 15 minutes covers: one account, asked by one requester.
  private struct Allowance: Hashable {
    let account: AccountName
    let scope: String
  }
}
