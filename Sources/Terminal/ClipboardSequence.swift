import Foundation

/// The terminal control sequence that sets the system clipboard (OSC 52).
///
/// Terminals that support it (xterm, kitty, iTerm2, WezTerm, Windows Terminal, and tmux with
/// `set-clipboard on`) copy the text even over SSH; the others ignore it without showing
/// anything.
public enum ClipboardSequence {
  /// `ESC ] 52 ; c ; BASE64 BEL`: copies `text` to the clipboard selection.
  public static func osc52(copying text: String) -> String {
    "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
  }
}
