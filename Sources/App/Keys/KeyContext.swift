/// A screen or mode where keys mean something of their own. The raw value is how key-binding
/// errors name it ("bound to both … on the list screen").
public enum KeyContext: String, Sendable, Hashable, CaseIterable {
  /// The passphrase prompt (and the new-vault prompt).
  case unlock
  /// Configuration problems found at start.
  case notices
  /// The account list.
  case list
  /// Typing a filter over the account list.
  case filter
  /// One account's details.
  case details
  /// Sign-in, first step: choose a provider.
  case providerChoice = "provider-choice"
  /// Sign-in: a provider without a client id, set up in a form.
  case providerSetup = "provider-setup"
  /// Sign-in: a provider of one's own from its issuer URL ("Other provider…").
  case otherProvider = "other-provider"
  /// Sign-in, second step: choose a flow.
  case flowChoice = "flow-choice"
  /// Sign-in, the flow screen: URL or code, countdown.
  case signIn = "sign-in"
  /// Typing a pasted redirect URL during a browser sign-in.
  case pasteRedirect = "paste-redirect"
  /// Typing the label a sign-in stores its account under.
  case labelField = "label-field"
  /// Typing an account's new label (the rename dialog, or the prompt after a sign-in).
  case rename
  /// The sign-out confirmation and its result.
  case signOut = "sign-out"
  /// The export dialog.
  case export
  /// The accounts the vault holds but cannot read.
  case damaged
  /// The help screen.
  case help
  /// The agent's question about a token request it holds (`agent start --confirm`), over
  /// whatever screen is open.
  case confirmation

  /// The heading of this context on the help screen.
  public var title: String {
    switch self {
    case .unlock: return "Unlock"
    case .notices: return "Configuration problems"
    case .list: return "Account list"
    case .filter: return "Filter"
    case .details: return "Account details"
    case .providerChoice: return "Sign-in: choose a provider"
    case .providerSetup: return "Sign-in: set up a provider"
    case .otherProvider: return "Sign-in: other provider"
    case .flowChoice: return "Sign-in: choose how"
    case .signIn: return "Sign-in in progress"
    case .pasteRedirect: return "Paste the redirect address"
    case .labelField: return "Sign-in: type the label"
    case .rename: return "Rename an account"
    case .signOut: return "Sign out"
    case .export: return "Export"
    case .damaged: return "Damaged accounts"
    case .help: return "Help"
    case .confirmation: return "A token request waits for you"
    }
  }

  /// True where typed characters go into a text field: only keys that type nothing (Enter,
  /// Esc, arrows, Tab, Ctrl-…) reach the key map there.
  public var takesText: Bool {
    switch self {
    case .unlock, .filter, .pasteRedirect, .labelField, .providerSetup, .otherProvider, .rename:
      return true
    default: return false
    }
  }
}
