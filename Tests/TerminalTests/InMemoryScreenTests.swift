import Terminal
import Testing

/// The test screen the application's tests drive.
@Suite struct InMemoryScreenTests {
  @Test func recordsFramesAndTheStylesTheirRolesResolvedTo() {
    let screen = InMemoryScreen(size: Size(rows: 2, columns: 10))
    var buffer = ScreenBuffer(size: screen.size)
    buffer.write("title", at: .origin, role: "title")
    let bold = Style(attributes: [.bold])
    screen.render(buffer) { $0 == "title" ? bold : .plain }
    #expect(screen.frames.count == 1)
    #expect(screen.lastFrame?.textLines() == ["title", ""])
    #expect(screen.lastStyles == ["title": bold, .default: .plain])
  }

  @Test func answersFromItsScriptThenTimesOutAfterCallingWhenIdle() {
    let screen = InMemoryScreen(events: [.character("a"), .enter])
    var idleTurns = 0
    screen.whenIdle = { screen in
      idleTurns += 1
      if idleTurns == 1 { screen.enqueue(.escape) }
    }
    let read = (0..<4).map { _ in screen.readEvent(timeout: .milliseconds(250)) }
    #expect(read == [.character("a"), .enter, .escape, nil])
    #expect(idleTurns == 2)
    #expect(screen.readTimeouts == Array(repeating: .milliseconds(250), count: 4))
  }

  @Test func aResizeChangesTheSizeAndQueuesAnEvent() {
    let screen = InMemoryScreen()
    screen.resize(to: Size(rows: 16, columns: 60))
    #expect(screen.size == Size(rows: 16, columns: 60))
    #expect(screen.readEvent(timeout: .zero) == .resize)
  }

  @Test func keepsClipboardWritesInvalidationsAndShutdown() {
    let screen = InMemoryScreen()
    screen.copyToClipboard("text")
    screen.invalidate()
    screen.shutdown()
    #expect(screen.clipboard == ["text"])
    #expect(screen.invalidations == 1)
    #expect(screen.isShutDown)
  }
}
