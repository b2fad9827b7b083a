import Terminal

/// The terminal's clipboard (OSC 52) as background work reaches it: the text travels to the
/// loop, which writes it between frames, since only the screen's thread may write the terminal.
public struct TerminalClipboard: Sendable {
  private let mailbox: Mailbox<AppLoop.Message>

  /// The clipboard of the loop reading `mailbox`.
  public init(mailbox: Mailbox<AppLoop.Message>) {
    self.mailbox = mailbox
  }

  /// Puts `text` on the terminal's clipboard.
  public func copy(_ text: SecretText) {
    mailbox.post(.copyToClipboard(text))
  }
}
