import Foundation
import Terminal

extension CursesScreen {
  /// How to open the curses screen.
  public struct Configuration: Sendable {
    /// The terminal type; `nil` means the `TERM` environment variable.
    public var term: String?
    /// The terminal to read keys from.
    public var inputFD: Int32
    /// The terminal to draw on.
    public var outputFD: Int32
    /// Refuse to start unless both descriptors are terminals (the product). Tests and
    /// benchmarks set it to false to draw into `/dev/null`.
    public var requiresTerminal: Bool
    /// Colours, or attributes only (`ColorMode(environment:noColorFlag:)`).
    public var colors: ColorMode
    /// Ask the terminal to mark pastes, so a pasted URL arrives as one `.paste` event.
    public var bracketedPaste: Bool
    /// Install the handlers that restore the terminal on signals and crashes, and the
    /// SIGWINCH handler. The product wants them; in-process tests must not.
    public var handlesSignals: Bool
    /// With `handlesSignals`, also restore the terminal on SIGINT, SIGTERM and SIGHUP and die.
    /// False when the program handles those itself (it defers them during critical sections,
    /// then ends its loop, which restores the terminal).
    public var handlesTerminationSignals: Bool
    /// How long a lone Esc waits for the rest of an escape sequence.
    public var escapeDelay: Duration

    /// A configuration for the process's own terminal (standard input and output).
    public init(
      term: String? = nil, inputFD: Int32 = 0, outputFD: Int32 = 1, requiresTerminal: Bool = true,
      colors: ColorMode = .automatic, bracketedPaste: Bool = true, handlesSignals: Bool = true,
      handlesTerminationSignals: Bool = true, escapeDelay: Duration = .milliseconds(25)
    ) {
      self.term = term
      self.inputFD = inputFD
      self.outputFD = outputFD
      self.requiresTerminal = requiresTerminal
      self.colors = colors
      self.bracketedPaste = bracketedPaste
      self.handlesTerminationSignals = handlesTerminationSignals
      self.handlesSignals = handlesSignals
      self.escapeDelay = escapeDelay
    }

    /// The product's configuration: standard input and output, `TERM` and `NO_COLOR` from
    /// `environment`, `--no-color` from `noColorFlag`.
    public static func standard(
      environment: [String: String] = ProcessInfo.processInfo.environment, noColorFlag: Bool
    ) -> Configuration {
      Configuration(
        term: environment["TERM"],
        colors: ColorMode(environment: environment, noColorFlag: noColorFlag))
    }
  }
}
