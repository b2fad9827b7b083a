import App
import Foundation
import Terminal
import Theme

/// Runs the real `AppLoop` on an `InMemoryScreen` on a thread of its own (the loop blocks, as
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
  }

  /// Runs the loop with `environment` until the script ends (then `q`) or `timeout` passes.
  static func run(
    _ environment: any AppEnvironment, mailbox: Mailbox<AppLoop.Message>,
    size: Size = Size(rows: 24, columns: 80), steps: [Step], resizeTo: Size? = nil,
    timeout: TimeInterval = 10
  ) async -> Outcome {
    await withCheckedContinuation { continuation in
      Thread {
        continuation.resume(
          returning: play(environment, mailbox: mailbox, size: size, steps: steps, timeout: timeout)
        )
      }.start()
    }
  }

  private static func play(
    _ environment: any AppEnvironment, mailbox: Mailbox<AppLoop.Message>, size: Size,
    steps: [Step], timeout: TimeInterval
  ) -> Outcome {
    let screen = InMemoryScreen(size: size)
    var index = 0
    var stuckAt: String?
    let deadline = Date().addingTimeInterval(timeout)
    screen.whenIdle = { screen in
      usleep(500)
      let text = screen.lastFrame?.textLines().joined(separator: "\n") ?? ""
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
        screen.enqueue(.escape, .escape, .escape, .character("q"))
      }
    }
    let state = AppState(configuration: Fixtures.configuration)
    let loop = AppLoop(
      screen: screen, theme: Theme(name: "plain", styles: [:]), state: state,
      environment: environment, mailbox: mailbox)
    loop.run()
    let texts = screen.frames.map { $0.textLines().joined(separator: "\n") }
    return Outcome(
      lastScreen: texts.last ?? "", everything: texts.joined(separator: "\n"),
      clipboard: screen.clipboard, stuckAt: stuckAt, frameSizes: screen.frames.map(\.size))
  }
}
