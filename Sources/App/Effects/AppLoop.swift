import Foundation
import Terminal
import Theme

/// The UI's loop: draw, wait for a key or a message, reduce, run effects; until quit.
///
/// Runs synchronously on the thread that owns the screen (the real main thread for curses, so
/// resizes arrive at once). Background work reaches it only through `mailbox`, whose `post`
/// wakes the screen; the loop itself never waits on the vault or the network.
public final class AppLoop {
  /// What the mailbox carries to the loop.
  public enum Message: Sendable {
    /// A result of background work.
    case action(Action)
    /// Text for the terminal's clipboard (OSC 52), which only the screen's thread may write.
    case copyToClipboard(SecretText)
    /// End the loop now (the process was asked to terminate, and no refresh is being stored):
    /// the reducer takes it as `.terminate`.
    case stop
  }

  private let screen: any Screen
  private let theme: Theme
  private let mailbox: Mailbox<Message>
  private let clock: () -> Date
  private let runner: EffectRunner
  /// Called once, after the first frame that shows the accounts (see `init`).
  private var settled: (() -> Void)?
  /// The state now (the final state once `run` returns).
  public private(set) var state: AppState

  /// A loop over `screen` with `environment`, drawing with `theme`; `clock` gives the time.
  /// `settled` is called once, after the first frame that shows the accounts, when starting
  /// (the vault opened and unlocked, its accounts read) is over.
  public init(
    screen: any Screen, theme: Theme, state: AppState, environment: any AppEnvironment,
    mailbox: Mailbox<Message>, clock: @escaping () -> Date = Date.init,
    settled: (() -> Void)? = nil
  ) {
    self.screen = screen
    self.settled = settled
    self.theme = theme
    self.state = state
    self.mailbox = mailbox
    self.clock = clock
    runner = EffectRunner(environment: environment) { action in mailbox.post(.action(action)) }
  }

  /// Runs until the user quits; returns the final state.
  @discardableResult
  public func run() -> AppState {
    dispatch(.resized(screen.size))
    for effect in Reducer.initialEffects { runner.run(effect) }
    while !state.shouldExit {
      let now = clock()
      screen.render(AppView.render(state, size: screen.size, now: now), styles: theme.style(for:))
      if let settled, state.phase == .ready, state.accountsLoaded {
        self.settled = nil
        settled()
      }
      let animating =
        !state.busy.isEmpty || !state.runningAttempts.isEmpty || state.phase == .starting
      let event = screen.readEvent(timeout: animating ? .milliseconds(100) : .milliseconds(250))
      switch event {
      case nil: break
      case .resize?: dispatch(.resized(screen.size))
      // No one is there to see a question or a last frame.
      case .hangup?: dispatch(.terminate)
      case let event?: dispatch(.key(event))
      }
      for message in mailbox.drain() {
        switch message {
        case .action(let action): dispatch(action)
        case .copyToClipboard(let text): screen.copyToClipboard(text.revealed)
        case .stop: dispatch(.terminate)
        }
      }
      dispatch(.tick)
    }
    runner.cancelAll()
    return state
  }

  /// Applies one action and starts its effects.
  public func dispatch(_ action: Action) {
    runner.observe(action)
    let effects = state.apply(action, now: clock())
    for effect in effects {
      if effect == .redraw {
        screen.invalidate()
      } else {
        runner.run(effect)
      }
    }
  }
}
