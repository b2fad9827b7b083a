/// Everything a key can do in the UI. The raw value is the action's name in `config.json`
/// (`"keys": {"refresh": ["r", "ctrl-r"]}`) and in key-binding errors.
public enum Command: String, Sendable, Hashable, CaseIterable {
  case moveUp = "move-up"
  case moveDown = "move-down"
  case pageUp = "page-up"
  case pageDown = "page-down"
  case first
  case last
  case details
  case add
  case signOut = "sign-out"
  case refresh
  case copy
  case export
  case filter
  case help
  case back
  case quit
  case confirm
  case yes
  case no
  case openBrowser = "open-browser"
  case copyURL = "copy-url"
  case copyCode = "copy-code"
  case pasteRedirect = "paste-redirect"
  case signInAgain = "sign-in-again"
  case makeDefault = "default"
  case demoAnswer = "demo-answer"
  case showDamaged = "damaged"
  case remove
  case editLabel = "label"
  case rename
  case retry
  case nextField = "next-field"
  case previousField = "previous-field"
  case toggle
  case redraw
  case allowOnce = "allow-once"
  case allowFifteenMinutes = "allow-15m"
  case deny
}
