import Foundation

/// What a copy to the clipboard did, and the words that say so: shared by the UI's status line
/// and `export --clipboard`.
public struct CopyReport: Sendable, Equatable {
  /// What became of the terminal's copy (OSC 52).
  public enum TerminalRoute: Sendable, Equatable {
    /// Sent to the terminal.
    case sent
    /// Sent to the terminal inside tmux with `set-clipboard on`, which takes it.
    case sentThroughTmux
    /// Sent inside tmux whose `set-clipboard` (the setting named) drops an application's
    /// OSC 52: it went nowhere.
    case droppedByTmux(setting: String)
    /// Not sent: no terminal.
    case notSent
  }

  /// What was copied, in words (`the token of simkl/alice`, `the sign-in URL`).
  public var what: String
  /// Where it went besides the terminal (OSC 52): `wl-copy`, `xclip`.
  public var tools: [String]
  /// Seconds after which the clipboard is cleared if it still holds the text; nil for text
  /// that is not secret (a URL, a user code).
  public var clearsAfter: TimeInterval?
  /// What became of the terminal's copy.
  public var terminal: TerminalRoute
  /// Why the desktop tool there was did not take it ("xclip could not copy it (…)"), nil when
  /// it did or there was none.
  public var toolFailure: String?

  /// Describes a copy.
  public init(
    what: String, tools: [String] = [], clearsAfter: TimeInterval? = nil,
    terminal: TerminalRoute = .sent, toolFailure: String? = nil
  ) {
    self.what = what
    self.tools = tools
    self.clearsAfter = clearsAfter
    self.terminal = terminal
    self.toolFailure = toolFailure
  }

  /// The route of a copy whose OSC 52 was `sent` (or not), inside tmux with `set-clipboard`
  /// `tmuxSetClipboard` (nil outside tmux, or not known).
  public static func route(sent: Bool, tmuxSetClipboard: String?) -> TerminalRoute {
    guard sent else { return .notSent }
    switch tmuxSetClipboard {
    case nil: return .sent
    case "on": return .sentThroughTmux
    case let setting?: return .droppedByTmux(setting: setting)
    }
  }

  /// True when the text reached a clipboard: the terminal's, or a desktop tool's.
  public var reachedAClipboard: Bool {
    switch terminal {
    case .sent, .sentThroughTmux: return true
    case .droppedByTmux, .notSent: return !tools.isEmpty
    }
  }

  /// What was done, in words for the status line: "sent the token of simkl/alice to the
  /// terminal (OSC 52)", "copied … with xclip and sent it to the terminal (OSC 52)", or, inside
  /// a tmux that drops OSC 52, what did not happen and the tmux setting that makes it happen;
  /// a desktop tool that failed is named with why.
  public var sentence: String {
    let tools = self.tools.joined(separator: " and ")
    var text: String
    switch terminal {
    case .sent, .sentThroughTmux:
      let place = terminal == .sent ? "the terminal" : "the terminal through tmux"
      text =
        tools.isEmpty
        ? "sent \(what) to \(place) (OSC 52)"
        : "copied \(what) with \(tools) and sent it to \(place) (OSC 52)"
      if let toolFailure { text += "; \(toolFailure)" }
    case .droppedByTmux(let setting):
      let drop =
        "tmux drops the terminal's copy (OSC 52) while its set-clipboard is \(setting): "
        + "`set -g set-clipboard on` in ~/.tmux.conf lets it through"
      text =
        tools.isEmpty
        ? "\(what) was not copied: \(drop)"
        : "copied \(what) with \(tools); \(drop)"
      if let toolFailure { text += "; \(toolFailure)" }
    case .notSent:
      text =
        tools.isEmpty
        ? "\(what) was not copied: "
          + (toolFailure ?? "no terminal and no wl-copy or xclip with a display")
        : "copied \(what) with \(tools)"
    }
    if let seconds = clearsAfter, reachedAClipboard {
      text += "; the clipboard is cleared in \(Int(clamping: seconds)) s"
    }
    return text
  }
}
