import App
import Foundation
import Terminal
import Testing

/// The "terminal too small" notice: keys pressed while it shows do nothing but quit.
@Suite struct SmallScreenReducerTests {
  static let small = Size(rows: 10, columns: 40)
  static let large = Size(rows: 24, columns: 80)

  @Test func movingAndHelpKeysDoNothingWhileTheTerminalIsTooSmall() {
    var driver = Driver(size: Self.large)
    driver.select("bob")
    driver.send(.resized(Self.small))
    let scrollTop = driver.state.scrollTop
    for key: KeyEvent in [.character("j"), .character("?"), .down, .enter, .character("a")] {
      #expect(driver.press(key).isEmpty, "\(key) asked for work")
    }
    #expect(driver.state.selection?.label == "bob")
    #expect(driver.state.scrollTop == scrollTop)
    #expect(driver.state.context == .list)
    driver.send(.resized(Self.large))
    #expect(driver.state.selection?.label == "bob")
    #expect(driver.state.panels.isEmpty)
    #expect(!driver.text.contains("Terminal too small"))
  }

  @Test func refreshAndSignOutKeysStartNothingWhileTheTerminalIsTooSmall() {
    var driver = Driver(size: Self.small)
    #expect(driver.press(.character("r")).isEmpty)
    #expect(driver.press(.character("d")).isEmpty)
    #expect(driver.state.busy.isEmpty)
    #expect(driver.state.panels.isEmpty)
  }

  @Test func quitStillQuitsWhileTheTerminalIsTooSmall() {
    var driver = Driver(size: Self.small)
    #expect(driver.text.contains("press q to quit"))
    driver.press(.character("q"))
    #expect(driver.state.shouldExit)
  }

  @Test func theFilterDoesNotTakeTypingWhileTheTerminalIsTooSmallButQStillQuits() {
    var driver = Driver(size: Self.large)
    driver.press(.character("/"))
    driver.send(.resized(Self.small))
    driver.type("bo")
    #expect(driver.state.filter.text.isEmpty)
    driver.press(.character("q"))
    #expect(driver.state.shouldExit)
  }

  @Test func thePassphraseIsNotTypedWhileTheTerminalIsTooSmallAndEscQuits() {
    var driver = Driver(size: Self.small, unlocked: false)
    driver.send(.finished(.start, .vault(.locked(problem: nil))))
    let notice = driver.frame.textLines().map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(notice.joined(separator: " ").contains("or press Esc to quit."))
    driver.type("hunter2")
    #expect(driver.press(.enter).isEmpty)
    guard case .locked(let form) = driver.state.phase else {
      Issue.record("not on the unlock screen: \(driver.state.phase)")
      return
    }
    #expect(form.passphrase.isEmpty)
    #expect(form.pending == nil)
    driver.press(.escape)
    #expect(driver.state.shouldExit)
  }
}
