import Accounts
import App
import Foundation
import Terminal
import Testing

/// The message line: a message too long for one line wraps onto the rows above, whole.
@Suite struct MessageLineTests {
  @Test func aLongMessageWhileFilteringShowsWholeAboveTheField() {
    var driver = Driver(size: Size(rows: 16, columns: 60))
    driver.select("bob")
    guard case .refresh(let id, _) = driver.press(.character("r")).first else {
      Issue.record("r did not refresh bob")
      return
    }
    driver.press(.character("/"))
    driver.type("b")
    driver.finish(
      id,
      .account(.failure(.signInNeeded("work/bob", reason: .refreshRejected))))
    let rows = driver.frame.textLines()
    #expect(rows[14].hasPrefix(" / b"))
    let message = rows[..<14].map { $0.trimmingCharacters(in: .whitespaces) }
      .joined(separator: " ")
    #expect(
      message.hasSuffix(
        "its tokens were cleared: press s to sign in again"),
      "\(rows)")
  }

  @Test func theSelectedRowStaysAboveAWrappedMessage() {
    let accounts = (0..<40).map { index in
      AccountSummary(
        name: Fixtures.name("work", "user\(index)"), providerName: "Work SSO",
        expiresAt: Fixtures.now.addingTimeInterval(3600), refreshable: true)
    }
    var driver = Driver(accounts: accounts, size: Size(rows: 16, columns: 60))
    driver.press(.end)
    guard case .refresh(let id, _) = driver.press(.character("r")).first else {
      Issue.record("r did not refresh user39")
      return
    }
    driver.finish(
      id,
      .account(
        .failure(.signInNeeded("work/user39", reason: .refreshRejected))))
    let rows = driver.frame.textLines()
    let selected = rows.firstIndex { $0.contains("› user39") }
    let message = rows.firstIndex { $0.hasPrefix(" work/user39: the provider refused") }
    #expect(selected != nil && message != nil && (selected ?? 99) < (message ?? 0), "\(rows)")
    #expect(rows[2].hasPrefix(" Work SSO"))
  }

  @Test func aShortMessageStaysOnItsOneLine() {
    var driver = Driver(size: Size(rows: 16, columns: 60))
    driver.select("alice")
    driver.press(.character("r"))
    let rows = driver.frame.textLines()
    #expect(rows[14].hasPrefix(" simkl/alice has no refresh token"))
    #expect(!rows[13].contains("refresh token"))
  }
}
