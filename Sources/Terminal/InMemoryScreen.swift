/// A `Screen` for tests: records every frame, answers `readEvent` from a script of key events,
/// and keeps what was copied to the clipboard.
///
/// When the script is exhausted `readEvent` behaves like a timeout (returns nil) after calling
/// `whenIdle`, which a test can use to add events, advance a fake clock, or count idle turns.
public final class InMemoryScreen: Screen {
  /// The current size; change it with `resize(to:)`.
  public private(set) var size: Size
  /// Every rendered frame, oldest first.
  public private(set) var frames: [ScreenBuffer] = []
  /// The style each role of the latest frame was drawn with (what the theme resolved).
  public private(set) var lastStyles: [Role: Style] = [:]
  /// Key events not read yet, next first.
  public private(set) var pendingEvents: [KeyEvent]
  /// The timeout of every `readEvent` call, in order.
  public private(set) var readTimeouts: [Duration] = []
  /// Everything passed to `copyToClipboard`, in order.
  public private(set) var clipboard: [String] = []
  /// How many times `invalidate` was called.
  public private(set) var invalidations = 0
  /// True once `shutdown` was called.
  public private(set) var isShutDown = false
  /// Called by `readEvent` when no scripted event is left, before it returns.
  public var whenIdle: ((InMemoryScreen) -> Void)?
  public let waker: ScreenWaker

  /// A screen of `size` that will report `events` in order; `waker` is what `waker.wake()`
  /// runs (nothing by default).
  public init(
    size: Size = Size(rows: 24, columns: 80), events: [KeyEvent] = [], waker: ScreenWaker = .none
  ) {
    self.size = size
    self.pendingEvents = events
    self.waker = waker
  }

  /// The latest frame, if any.
  public var lastFrame: ScreenBuffer? { frames.last }

  /// Adds events to the end of the script.
  public func enqueue(_ events: KeyEvent...) {
    pendingEvents += events
  }

  /// Changes the size and queues `.resize`, as a real terminal window would.
  public func resize(to newSize: Size) {
    size = newSize
    pendingEvents.append(.resize)
  }

  public func render(_ buffer: ScreenBuffer, styles: (Role) -> Style) {
    frames.append(buffer)
    var used: [Role: Style] = [:]
    for row in 0..<buffer.size.rows {
      for cell in buffer.cells(inRow: row) where used[cell.role] == nil {
        used[cell.role] = styles(cell.role)
      }
    }
    lastStyles = used
  }

  public func readEvent(timeout: Duration) -> KeyEvent? {
    readTimeouts.append(timeout)
    if pendingEvents.isEmpty { whenIdle?(self) }
    return pendingEvents.isEmpty ? nil : pendingEvents.removeFirst()
  }

  public func invalidate() { invalidations += 1 }

  public func copyToClipboard(_ text: String) { clipboard.append(text) }

  public func shutdown() { isShutDown = true }
}
