import Accounts
import App
import Foundation
import Terminal
import Testing

@testable import AuthCore

/// The agent's held token requests in the UI: looked for once a second, shown over whatever
/// screen is open, and answered with allow once, allow for 15 minutes or deny.
@Suite struct ConfirmationReducerTests {
  static let forwarded = ConfirmationQuestion(
    id: 4, account: "work/bob",
    requester: "forwarded by ssh (pid 4242) from \"build01\" (as the remote says)",
    forwarded: true, deadline: Fixtures.now.addingTimeInterval(60))
  static let local = ConfirmationQuestion(
    id: 5, account: "simkl/alice", requester: "curl (pid 77)", forwarded: false,
    deadline: Fixtures.now.addingTimeInterval(60))

  /// A driver whose next look at the agent finds `questions`.
  static func asked(_ questions: [ConfirmationQuestion], size: Size = Size(rows: 24, columns: 80))
    -> Driver
  {
    var driver = Driver(size: size)
    driver.look(finding: questions)
    return driver
  }

  @Test func theAgentIsAskedOnceASecondWhileTheUIRuns() {
    var driver = Driver()
    driver.answersUpkeep = false
    let first = driver.advance(1).filter { if case .watchQuestions = $0 { true } else { false } }
    #expect(first.count == 1)
    // Not again while that look is under way.
    #expect(!driver.advance(1).contains { if case .watchQuestions = $0 { true } else { false } })
    guard let look = first.first else { return }
    driver.send(.finished(look, .questions([])))
    #expect(driver.advance(1).contains { if case .watchQuestions = $0 { true } else { false } })
  }

  @Test func aHeldRequestOpensTheDialogOverTheOpenScreen() {
    var driver = Self.asked([])
    driver.select("bob")
    driver.press(.enter)
    #expect(driver.state.context == .details)
    driver.look(finding: [Self.local, Self.forwarded])
    // The oldest first, over the details, which stay underneath.
    #expect(driver.state.confirmation?.question == Self.forwarded)
    #expect(driver.state.context == .confirmation)
    #expect(driver.state.topPanel == .details(Fixtures.bob.name))
    #expect(driver.text.contains("Allow a token of work/bob?"))
    // Keys of the screen underneath do nothing now.
    #expect(driver.press(.character("r")).isEmpty)
  }

  @Test func eachAnswerIsSentAndTheNextQuestionFollows() throws {
    var driver = Self.asked([Self.forwarded, Self.local])
    let effects = driver.press(.character("f"))
    #expect(
      effects == [
        .answerQuestion(try #require(effects.first?.request), question: 4, .allowFifteenMinutes)
      ])
    // Keys wait while the answer is on its way.
    #expect(driver.press(.character("d")).isEmpty)
    driver.finish(try #require(effects.first?.request), .done(nil))
    #expect(driver.state.confirmation == nil)
    #expect(
      driver.state.message?.text
        == "allowed for 15 minutes: a token of work/bob for forwarded by ssh (pid 4242) from "
        + "\"build01\" (as the remote says)")
    // The next look still lists the answered one (it started before): only the other shows.
    driver.look(finding: [Self.forwarded, Self.local])
    #expect(driver.state.confirmation?.question == Self.local)
    let denial = driver.press(.escape)
    #expect(denial == [.answerQuestion(try #require(denial.first?.request), question: 5, .deny)])
  }

  @Test func anAnswerTheAgentRefusesIsSaidInTheDialog() throws {
    var driver = Self.asked([Self.forwarded])
    let effects = driver.press(.character("o"))
    let id = try #require(effects.first?.request)
    driver.finish(
      id, .done(.vault(.locked(path: "/v"))))
    #expect(driver.state.confirmation?.problem == AccountsError.vault(.locked(path: "/v")).message)
    #expect(driver.state.confirmation?.answering == nil)
  }

  @Test func theUnlockScreenAsksToo() throws {
    var driver = Driver(unlocked: false)
    driver.send(.finished(.start, .vault(.locked(problem: nil))))
    driver.type("hunt")
    driver.look(finding: [Self.forwarded])
    #expect(driver.state.context == .confirmation)
    #expect(driver.text.contains("Allow a token of work/bob?"))
    // Its keys answer it; nothing goes into the passphrase field.
    let effects = driver.press(.character("d"))
    #expect(effects == [.answerQuestion(try #require(effects.first?.request), question: 4, .deny)])
    driver.finish(try #require(effects.first?.request), .done(nil))
    #expect(driver.state.context == .unlock)
    guard case .locked(let form) = driver.state.phase else {
      Issue.record("not on the unlock screen: \(driver.state.phase)")
      return
    }
    #expect(form.passphrase.text == "hunt")
  }

  @Test func aQuestionTheAgentNoLongerHoldsCloses() {
    var driver = Self.asked([Self.forwarded])
    driver.look(finding: [])
    #expect(driver.state.confirmation == nil)
    #expect(driver.state.context == .list)
    #expect(driver.state.message?.kind == .warning)
    // The person may have looked away while it was asked: the news stays until a key.
    #expect(driver.state.message?.staysUntilKey == true)
  }
}

extension Driver {
  /// A second later, the look at the agent finds `questions` (the other background work
  /// ends as `advance` ends it: nothing changed, a due refresh gives a fresh hour).
  mutating func look(finding questions: [ConfirmationQuestion]) {
    let answers = answersUpkeep
    answersUpkeep = false
    for effect in advance(1) {
      switch effect {
      case .watchQuestions: send(.finished(effect, .questions(questions)))
      case .watchVault, .watchProviders: send(.finished(effect, .done(nil)))
      case .refreshAhead(_, let name):
        guard var account = state.account(name) else { break }
        account.obtainedAt = now
        account.expiresAt = now.addingTimeInterval(3600)
        send(.finished(effect, .account(.success(account))))
      default: break
      }
    }
    answersUpkeep = answers
  }
}
