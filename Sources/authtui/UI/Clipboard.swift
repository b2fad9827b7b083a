import App
import Foundation

/// The clipboard as the UI uses it (DESIGN.md "Command line", Clipboard): the terminal's OSC 52
/// (through the UI loop, which owns the terminal; it works over SSH and in tmux), plus
/// `wl-copy` or `xclip` when there is a display for them. A copied token is cleared after a
/// delay if the clipboard still holds it.
actor Clipboard {
  /// A program that reaches the desktop's clipboard.
  struct Tool: Sendable {
    let name: String
    let copy: [String]
    let paste: [String]
    let clear: [String]
  }

  private let terminal: TerminalClipboard
  private let environment: [String: String]
  /// The desktop tool, when there is one here.
  nonisolated let tool: Tool?
  /// Counts copies, so a clear scheduled for an older copy leaves a newer one alone.
  private var generation = 0

  init(terminal: TerminalClipboard, environment: [String: String]) {
    self.terminal = terminal
    self.environment = environment
    tool = Self.findTool(environment)
  }

  /// `wl-copy` under Wayland, `xclip` under X11, when installed.
  static func findTool(_ environment: [String: String]) -> Tool? {
    if !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty,
      DetachedProcess.isInstalled("wl-copy", environment: environment)
    {
      return Tool(
        name: "wl-copy", copy: ["wl-copy"], paste: ["wl-paste", "--no-newline"],
        clear: ["wl-copy", "--clear"])
    }
    if !(environment["DISPLAY"] ?? "").isEmpty,
      DetachedProcess.isInstalled("xclip", environment: environment)
    {
      return Tool(
        name: "xclip", copy: ["xclip", "-selection", "clipboard"],
        paste: ["xclip", "-selection", "clipboard", "-o"],
        clear: ["xclip", "-selection", "clipboard"])
    }
    return nil
  }

  /// Copies `text`; with `clearAfter`, clears it after that many seconds if it is still there.
  /// Returns the desktop tools used besides the terminal.
  func copy(_ text: SecretText, clearAfter: TimeInterval?) -> [String] {
    generation += 1
    terminal.copy(text)
    var used: [String] = []
    if let tool,
      (try? DetachedProcess.start(
        tool.copy, input: Array(text.revealed.utf8), environment: environment)) != nil
    {
      used.append(tool.name)
    }
    if let clearAfter {
      let mine = generation
      Task {
        try? await Task.sleep(for: .seconds(clearAfter))
        await self.clear(text, ifGeneration: mine)
      }
    }
    return used
  }

  /// Clears the clipboard if nothing was copied since and the desktop clipboard still holds
  /// `text` (the terminal's cannot be read back, so it is cleared when the desktop's is, or
  /// when there is no desktop tool).
  private func clear(_ text: SecretText, ifGeneration expected: Int) async {
    guard expected == generation else { return }
    if let tool {
      let environment = self.environment
      let current = await withCheckedContinuation { continuation in
        Thread {
          continuation.resume(
            returning: DetachedProcess.output(of: tool.paste, environment: environment))
        }.start()
      }
      guard let current, current == Array(text.revealed.utf8) else { return }
      try? DetachedProcess.start(tool.clear, input: [], environment: environment)
    }
    terminal.copy(SecretText(""))
    terminal.reportCleared()
  }
}
