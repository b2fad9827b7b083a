import Foundation
import Synchronization
import XCTest

@testable import Agent

/// Where a held token request waits for a person: the UI's questions and answers, the confirm
/// command, nobody, the window, and the allowance for 15 minutes.
final class ConfirmationDeskTests: XCTestCase {
  /// A clock the test moves: seconds after a fixed start.
  final class TestClock: Sendable {
    private let seconds = Atomic<Int>(0)
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    func advance(_ by: Int) { seconds.add(by, ordering: .sequentiallyConsistent) }
    var now: @Sendable () -> Date {
      { [self] in
        start.addingTimeInterval(TimeInterval(seconds.load(ordering: .sequentiallyConsistent)))
      }
    }
  }

  /// What the confirm command was asked.
  actor Asked {
    var questions: [ConfirmationQuestion] = []
    func add(_ question: ConfirmationQuestion) { questions.append(question) }
  }

  struct NoQuestion: Error {}

  /// Waits (60 s at most) until the desk lists a question, as the UI's poll sees it.
  private func question(on desk: ConfirmationDesk) async throws -> ConfirmationQuestion {
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline {
      if let first = await desk.questions().first { return first }
      try await Task.sleep(for: .milliseconds(20))
    }
    throw NoQuestion()
  }

  /// A UI that looked and then closed still counts as open for a while: a question it does
  /// not take within the grace goes to the confirm command, which allows it; a question the
  /// UI takes is not put to the command.
  func testAQuestionTheUIDoesNotTakeGoesToTheCommand() async throws {
    let asked = Asked()
    let desk = ConfirmationDesk(
      window: 600,
      command: { question, _ in
        await asked.add(question)
        return nil
      }, pickupGrace: 0.2)
    _ = await desk.questions()  // the UI looks, then closes
    let outcome = await desk.confirm(
      account: "sandbox/alice", requester: "curl (pid 9)", forwarded: false, scope: "local:curl")
    XCTAssertEqual(outcome, .allowedByCommand)
    let askedFirst = await asked.questions.map(\.account)
    XCTAssertEqual(askedFirst, ["sandbox/alice"])
    // A question the UI took is not put to the command when its grace ends (run here by
    // hand: this desk's grace is long), and the UI's answer settles it.
    let patient = ConfirmationDesk(
      window: 600,
      command: { question, _ in
        await asked.add(question)
        return nil
      }, pickupGrace: 600)
    _ = await patient.questions()
    let taken = Task {
      await patient.confirm(
        account: "sandbox/bob", requester: "curl (pid 9)", forwarded: false, scope: "local:curl")
    }
    let question = try await question(on: patient)
    await patient.askCommandUnlessTaken(question)
    _ = await patient.answer(question.id, with: .deny)
    let takenOutcome = await taken.value
    XCTAssertEqual(takenOutcome, .deniedInUI)
    let askedAfter = await asked.questions.map(\.account)
    XCTAssertEqual(askedAfter, ["sandbox/alice"])
  }

  /// A burst of held requests is one prompt after another: the confirm command asks about one
  /// question at a time.
  func testTheConfirmCommandAsksOneQuestionAtATime() async throws {
    actor Overlap {
      var running = 0
      var most = 0
      func enter() {
        running += 1
        most = max(most, running)
      }
      func leave() { running -= 1 }
    }
    let overlap = Overlap()
    let desk = ConfirmationDesk(
      window: 600,
      command: { _, _ in
        await overlap.enter()
        try? await Task.sleep(for: .milliseconds(30))
        await overlap.leave()
        return nil
      })
    let outcomes = await withTaskGroup(of: ConfirmationDesk.Outcome.self) { group in
      for label in ["a", "b", "c", "d"] {
        group.addTask {
          await desk.confirm(
            account: AccountName(provider: "sandbox", label: label), requester: "curl (pid 9)",
            forwarded: false, scope: "local:curl")
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    XCTAssertEqual(outcomes, Array(repeating: .allowedByCommand, count: 4))
    let most = await overlap.most
    XCTAssertEqual(most, 1)
  }

  /// At most `mostHeld` requests wait at once: one more is denied without a prompt.
  func testOneRequestMoreThanTheMostHeldIsDeniedAtOnce() async throws {
    let desk = ConfirmationDesk(window: 600, command: nil)
    _ = await desk.questions()  // the UI is open
    var waiting: [Task<ConfirmationDesk.Outcome, Never>] = []
    for index in 0..<ConfirmationDesk.mostHeld {
      waiting.append(
        Task {
          await desk.confirm(
            account: AccountName(provider: "sandbox", label: "u\(index)"),
            requester: "curl (pid 9)", forwarded: false, scope: "local:curl")
        })
    }
    let deadline = Date().addingTimeInterval(60)
    while await desk.questions().count < ConfirmationDesk.mostHeld, Date() < deadline {
      try await Task.sleep(for: .milliseconds(20))
    }
    let more = await desk.confirm(
      account: "sandbox/alice", requester: "curl (pid 9)", forwarded: false, scope: "local:curl")
    XCTAssertEqual(more, .tooManyHeld)
    XCTAssertEqual(more.words, "too many requests held already")
    await desk.close()
    for task in waiting {
      let outcome = await task.value
      XCTAssertEqual(outcome, .agentStopped)
    }
  }

  func testClosingDeniesTheQuestionsWaitingEndsTheCommandAskingAndAsksNoMore() async throws {
    let desk = ConfirmationDesk(window: 600, command: nil)
    _ = await desk.questions()  // the UI is open
    let inUI = Task {
      await desk.confirm(
        account: "sandbox/alice", requester: "curl (pid 9)", forwarded: false, scope: "local:curl")
    }
    _ = try await question(on: desk)
    await desk.close()
    let closedInUI = await inUI.value
    XCTAssertEqual(closedInUI, .agentStopped)
    XCTAssertFalse(closedInUI.allowed)
    let afterwards = await desk.confirm(
      account: "sandbox/alice", requester: "curl (pid 9)", forwarded: false, scope: "local:curl")
    XCTAssertEqual(afterwards, .agentStopped)

    // A confirm command asking is cancelled, and even its "allowed" then allows nothing.
    let started = AsyncStream<Void>.makeStream()
    let commandDesk = ConfirmationDesk(
      window: 600,
      command: { _, _ in
        started.continuation.yield()
        while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(10)) }
        return nil
      })
    let byCommand = Task {
      await commandDesk.confirm(
        account: "sandbox/alice", requester: "curl (pid 9)", forwarded: false, scope: "local:curl")
    }
    var iterator = started.stream.makeAsyncIterator()
    _ = await iterator.next()
    await commandDesk.close()
    let closedByCommand = await byCommand.value
    XCTAssertEqual(closedByCommand, .agentStopped)
  }

  func testWithNoUIAndNoCommandTheRequestIsDeniedAtOnce() async {
    let desk = ConfirmationDesk(window: 600, command: nil)
    let outcome = await desk.confirm(
      account: "sandbox/alice", requester: "forwarded by ssh (pid 7)", forwarded: true,
      scope: "forwarded:build1")
    XCTAssertEqual(outcome, .nobodyToAsk)
  }

  func testWithNoUITheCommandIsAskedWithTheQuestion() async {
    let asked = Asked()
    let desk = ConfirmationDesk(
      window: 45,
      command: { question, timeout in
        await asked.add(question)
        return timeout == 45 && question.account == "sandbox/alice" ? nil : "wrong question"
      })
    let allowed = await desk.confirm(
      account: "sandbox/alice", requester: "curl (pid 9)", forwarded: false, scope: "local:curl")
    XCTAssertEqual(allowed, .allowedByCommand)
    let requesters = await asked.questions.map(\.requester)
    XCTAssertEqual(requesters, ["curl (pid 9)"])
    let denied = await desk.confirm(
      account: "sandbox/bob", requester: "curl (pid 9)", forwarded: false, scope: "local:curl")
    XCTAssertEqual(denied, .deniedByCommand("wrong question"))
  }

  func testAnOpenUIIsAskedAndItsAnswerDecides() async throws {
    let commandAsked = Asked()
    let desk = ConfirmationDesk(
      window: 600,
      command: { question, _ in
        await commandAsked.add(question)
        return nil
      })
    _ = await desk.questions()  // the UI is open
    let request = Task {
      await desk.confirm(
        account: "sandbox/alice", requester: "forwarded by ssh (pid 7)", forwarded: true,
        scope: "forwarded:build1")
    }
    let asked = try await question(on: desk)
    XCTAssertEqual(asked.account, "sandbox/alice")
    XCTAssertTrue(asked.forwarded)
    let taken = await desk.answer(asked.id, with: .deny)
    XCTAssertTrue(taken)
    let outcome = await request.value
    XCTAssertEqual(outcome, .deniedInUI)
    let commandQuestions = await commandAsked.questions
    XCTAssertEqual(commandQuestions, [])
    // Answered once only; nothing waits any more.
    let again = await desk.answer(asked.id, with: .allowOnce)
    XCTAssertFalse(again)
    let left = await desk.questions()
    XCTAssertEqual(left, [])
  }

  func testAllowOnceAsksAgainNextTimeButFifteenMinutesDoesNotUntilTheyEnd() async throws {
    let clock = TestClock()
    let desk = ConfirmationDesk(window: 600, command: nil, now: clock.now)
    func ask(_ scope: String) -> Task<ConfirmationDesk.Outcome, Never> {
      Task {
        await desk.confirm(
          account: "sandbox/alice", requester: "forwarded by ssh (pid 7)", forwarded: true,
          scope: scope)
      }
    }
    _ = await desk.questions()
    let first = ask("forwarded:build1")
    _ = await desk.answer(try await question(on: desk).id, with: .allowOnce)
    let firstOutcome = await first.value
    XCTAssertEqual(firstOutcome, .allowedInUI(.allowOnce))
    let second = ask("forwarded:build1")
    _ = await desk.answer(try await question(on: desk).id, with: .allowFifteenMinutes)
    let secondOutcome = await second.value
    XCTAssertEqual(secondOutcome, .allowedInUI(.allowFifteenMinutes))
    // Covered now: no question.
    clock.advance(14 * 60)
    let covered = await ask("forwarded:build1").value
    XCTAssertEqual(covered, .allowedEarlier(until: clock.start.addingTimeInterval(15 * 60)))
    // Another requester is not covered: with the UI gone (its last look is old), nobody asks.
    let other = await ask("forwarded:build2").value
    XCTAssertEqual(other, .nobodyToAsk)
    // The allowance ends on time.
    clock.advance(61)
    let ended = await ask("forwarded:build1").value
    XCTAssertEqual(ended, .nobodyToAsk)
  }

  func testAQuestionNobodyAnswersIsDeniedWhenItsWindowEnds() async throws {
    let desk = ConfirmationDesk(window: 0.5, command: nil)
    _ = await desk.questions()
    let outcome = await desk.confirm(
      account: "sandbox/alice", requester: "curl (pid 9)", forwarded: false, scope: "local:curl")
    XCTAssertEqual(outcome, .timedOut)
    let late = await desk.answer(1, with: .allowOnce)
    XCTAssertFalse(late)
  }

  func testAUIThatStoppedAskingCountsAsClosed() async {
    let clock = TestClock()
    let desk = ConfirmationDesk(window: 600, command: { _, _ in nil }, now: clock.now)
    _ = await desk.questions()
    clock.advance(Int(ConfirmationDesk.openUIGrace) + 1)
    let outcome = await desk.confirm(
      account: "sandbox/alice", requester: "curl (pid 9)", forwarded: false, scope: "local:curl")
    XCTAssertEqual(outcome, .allowedByCommand)
  }
}
