import Foundation
import Terminal
import Testing

/// Background work hands messages to the UI loop through the mailbox.
@Suite struct MailboxTests {
  @Test func deliversMessagesInOrderAndWakesTheScreen() throws {
    let wakes = try Mailbox<Int>()
    let mailbox = try Mailbox<String>(waking: ScreenWaker { wakes.post(1) })
    mailbox.post("first")
    mailbox.post("second")
    #expect(mailbox.drain() == ["first", "second"])
    #expect(mailbox.drain().isEmpty)
    #expect(wakes.drain().count == 2)
  }

  @Test func collectsMessagesPostedFromManyTasks() async throws {
    let mailbox = try Mailbox<Int>()
    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<8 {
        group.addTask {
          for index in 0..<100 { mailbox.post(sender * 1000 + index) }
        }
      }
    }
    let received = mailbox.drain()
    #expect(received.count == 800)
    #expect(Set(received).count == 800)
    // Each sender's messages keep their order.
    for sender in 0..<8 {
      let own = received.filter { $0 / 1000 == sender }
      #expect(own == own.sorted())
    }
  }

  @Test func releasesUndrainedMessagesWithTheMailbox() throws {
    weak var weakMessage: Token?
    do {
      let mailbox = try Mailbox<Token>()
      let token = Token()
      weakMessage = token
      mailbox.post(token)
    }
    #expect(weakMessage == nil)
  }

  final class Token: Sendable {}
}
