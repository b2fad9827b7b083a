import App
import Foundation
import Isolation
import Terminal
import Theme

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the real `AppLoop` on a scripted screen on a thread of its own (the loop blocks, as
/// it does on the main thread in the product), playing a script: wait until the screen shows
/// some text, then press keys.
enum LoopHarness {
  /// One step of the script.
  struct Step: Sendable {
    /// Text the screen must show first.
    let waitFor: String
    /// Keys to press then.
    let keys: [KeyEvent]
    /// Something to do besides (release a held request), run on a task.
    let also: (@Sendable () async -> Void)?

    init(_ waitFor: String, _ keys: [KeyEvent] = [], also: (@Sendable () async -> Void)? = nil) {
      self.waitFor = waitFor
      self.keys = keys
      self.also = also
    }
  }

  /// How the run ended.
  struct Outcome: Sendable {
    /// The last frame's text.
    var lastScreen: String
    /// Every frame's text joined (to check that something never showed).
    var everything: String
    /// What reached the terminal's clipboard.
    var clipboard: [String]
    /// The step the script was stuck on, if it timed out.
    var stuckAt: String?
    /// Sizes of the frames drawn.
    var frameSizes: [Size]
    /// The frame on screen at each call of the loop's `settled`.
    var settledOn: [String]
  }

  /// Runs the loop with `environment` until the script ends (then `q`) or `timeout` passes.
  /// The timeout only matters when the script is stuck, so it is generous: the loop's effects
  /// run as tasks, and on a busy machine the two-thread cooperative pool, shared with every
  /// other test of the run, can leave them waiting for half a minute.
  static func run(
    _ environment: any AppEnvironment, mailbox: Mailbox<AppLoop.Message>,
    size: Size = Size(rows: 24, columns: 80), steps: [Step], resizeTo: Size? = nil,
    timeout: TimeInterval = 90
  ) async -> Outcome {
    await onOwnThread {
      play(environment, mailbox: mailbox, size: size, steps: steps, timeout: timeout)
    }
  }

  private static func play(
    _ environment: any AppEnvironment, mailbox: Mailbox<AppLoop.Message>, size: Size,
    steps: [Step], timeout: TimeInterval
  ) -> Outcome {
    let screen = ScriptedScreen(size: size)
    var index = 0
    var stuckAt: String?
    let deadline = Date().addingTimeInterval(timeout)
    screen.whenIdle = { screen in
      let text = screen.lastText
      if index < steps.count, text.contains(steps[index].waitFor) {
        let step = steps[index]
        for key in step.keys {
          if case .resize = key {
            screen.resize(to: Size(rows: 16, columns: 60))
          } else {
            screen.enqueue(key)
          }
        }
        if let also = step.also { Task { await also() } }
        index += 1
        if index == steps.count { screen.enqueue(.character("q")) }
      } else if Date() > deadline, stuckAt == nil {
        stuckAt = index < steps.count ? steps[index].waitFor : "quitting"
        for key in [KeyEvent.escape, .escape, .escape, .character("q")] { screen.enqueue(key) }
      }
    }
    let state = AppState(configuration: Fixtures.configuration)
    var settledOn: [String] = []
    let loop = AppLoop(
      screen: screen, theme: Theme(name: "plain", styles: [:]), state: state,
      environment: environment, mailbox: mailbox, settled: { settledOn.append(screen.lastText) })
    loop.run()
    return Outcome(
      lastScreen: screen.lastText, everything: screen.seenTexts.sorted().joined(separator: "\n"),
      clipboard: screen.clipboard, stuckAt: stuckAt, frameSizes: screen.frameSizes,
      settledOn: settledOn)
  }
}

/// A screen for the loop tests that keeps only what they check (the latest frame's text, every
/// different text once, the sizes drawn at), and waits a little when it has no key, as a real
/// terminal would, so a waiting loop does not spin.
final class ScriptedScreen: Screen {
  private(set) var size: Size
  private(set) var lastText = ""
  private(set) var seenTexts: Set<String> = []
  private(set) var frameSizes: [Size] = []
  private(set) var clipboard: [String] = []
  private var pending: [KeyEvent] = []
  var whenIdle: ((ScriptedScreen) -> Void)?
  let waker = ScreenWaker.none

  init(size: Size) {
    self.size = size
  }

  func enqueue(_ key: KeyEvent) {
    pending.append(key)
  }

  func resize(to newSize: Size) {
    size = newSize
    pending.append(.resize)
  }

  func render(_ buffer: ScreenBuffer, styles: (Role) -> Style) {
    lastText = buffer.textLines().joined(separator: "\n")
    seenTexts.insert(lastText)
    if frameSizes.last != buffer.size { frameSizes.append(buffer.size) }
  }

  func readEvent(timeout: Duration) -> KeyEvent? {
    if pending.isEmpty {
      whenIdle?(self)
      if pending.isEmpty { usleep(2000) }
    }
    return pending.isEmpty ? nil : pending.removeFirst()
  }

  func invalidate() {}

  func copyToClipboard(_ text: String) { clipboard.append(text) }

  func shutdown() {}
}
