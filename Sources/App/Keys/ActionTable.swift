import Terminal

// The UI's keys declared once: the screens where keys mean something (`KeyContext`), the
// actions (`Command`) and the one table that binds them (`ActionTable`). A new action is its
// case and its row here; a new screen, its case and the rows that apply on it.

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
  /// The dialog that changes the vault's passphrase.
  case passphrase
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
    case .passphrase: return "Change the vault's passphrase"
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
    case .unlock, .filter, .pasteRedirect, .labelField, .providerSetup, .otherProvider, .rename,
      .passphrase:
      return true
    default: return false
    }
  }
}

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
  case changePassphrase = "passphrase"
  case retry
  case nextField = "next-field"
  case previousField = "previous-field"
  case toggle
  case redraw
  case allowOnce = "allow-once"
  case allowFifteenMinutes = "allow-15m"
  case deny
}

/// The one table of the UI's actions: each action's name, default keys, help text and the
/// screens where it applies. The key map, the help screen, the status-line hints and the
/// user's guide's key list (docs/user-guide.md) all come from it.
public enum ActionTable {
  /// One row of the table.
  public struct Row: Sendable {
    /// The action.
    public let command: Command
    /// The keys that trigger it unless `config.json` says otherwise.
    public let defaultKeys: [KeyEvent]
    /// What the help screen says it does.
    public let help: String
    /// The short word of the status-line hint (`add`, `sign out`), nil to leave it out.
    public let hint: String?
    /// Where it applies.
    public let contexts: Set<KeyContext>
  }

  private static let everywhere = Set(KeyContext.allCases)
  /// Where no field takes the typed characters, and no question waits.
  private static let browsing = everywhere.filter { !$0.takesText && $0 != .confirmation }
  private static let account: Set<KeyContext> = [.list, .details]
  private static let choosing: Set<KeyContext> = [
    .list, .filter, .providerChoice, .flowChoice, .help, .notices, .export, .damaged,
  ]

  private static func key(_ name: Character) -> KeyEvent { .character(name) }

  /// Every action, in the order the help screen lists them.
  public static let rows: [Row] = [
    Row(
      command: .moveUp, defaultKeys: [.up, key("k")], help: "move up", hint: nil,
      contexts: choosing),
    Row(
      command: .moveDown, defaultKeys: [.down, key("j")], help: "move down", hint: nil,
      contexts: choosing),
    Row(
      command: .pageUp, defaultKeys: [.pageUp], help: "one page up", hint: nil,
      contexts: [.list, .help, .providerChoice]),
    Row(
      command: .pageDown, defaultKeys: [.pageDown], help: "one page down", hint: nil,
      contexts: [.list, .help, .providerChoice]),
    Row(
      command: .first, defaultKeys: [.home, key("g")], help: "go to the first line", hint: nil,
      contexts: [.list, .help, .providerChoice]),
    Row(
      command: .last, defaultKeys: [.end, key("G")], help: "go to the last line", hint: nil,
      contexts: [.list, .help, .providerChoice]),
    Row(
      command: .details, defaultKeys: [.enter], help: "show the account's details",
      hint: "details", contexts: [.list]),
    Row(
      command: .add, defaultKeys: [key("a")], help: "add an account: sign in to a provider",
      hint: "add", contexts: [.list]),
    Row(
      command: .refresh, defaultKeys: [key("r")],
      help: "refresh the account's access token now", hint: "refresh", contexts: account),
    Row(
      command: .copy, defaultKeys: [key("c")],
      help: "copy the access token to the clipboard (cleared after 45 s)", hint: "copy",
      contexts: account),
    Row(
      command: .export, defaultKeys: [key("e")],
      help: "export the access token to an env file or the clipboard", hint: "export",
      contexts: account),
    Row(
      command: .signOut, defaultKeys: [key("d")],
      help: "sign out: revoke where the provider can, delete the account",
      hint: "sign out", contexts: account),
    Row(
      command: .signInAgain, defaultKeys: [key("s")],
      help: "sign in to the account's provider again, keeping its label", hint: "sign in again",
      contexts: account),
    Row(
      command: .makeDefault, defaultKeys: [key("*")],
      help: "mark or unmark it as the account PROVIDER alone names (`authtui default`)",
      hint: "default", contexts: account),
    Row(
      command: .rename, defaultKeys: [key("l")],
      help: "rename the account: give it another label (PROVIDER/LABEL)", hint: "rename",
      contexts: account),
    Row(
      command: .showDamaged, defaultKeys: [key("D")],
      help: "show the accounts the vault cannot read, to remove them", hint: "damaged",
      contexts: [.list]),
    Row(
      command: .remove, defaultKeys: [key("d")],
      help: "remove the damaged account from this vault (its tokens cannot be read or revoked)",
      hint: "remove", contexts: [.damaged]),
    Row(
      command: .changePassphrase, defaultKeys: [key("P")],
      help: "change the vault's passphrase (asks the current one first)", hint: "passphrase",
      contexts: [.list]),
    Row(
      command: .filter, defaultKeys: [key("/")], help: "filter the accounts as you type",
      hint: "filter", contexts: [.list]),
    Row(
      command: .openBrowser, defaultKeys: [key("o")],
      help: "open the page in the browser (again)", hint: "open page",
      contexts: [.signIn, .signOut]),
    Row(
      command: .copyCode, defaultKeys: [key("c")], help: "copy the code to the clipboard",
      hint: "copy code", contexts: [.signIn]),
    Row(
      command: .copyURL, defaultKeys: [key("u")], help: "copy the URL to the clipboard",
      hint: "copy URL", contexts: [.signIn]),
    Row(
      command: .pasteRedirect, defaultKeys: [key("p")],
      help: "paste the address the browser ended on (a browser on another machine)",
      hint: "paste address", contexts: [.signIn]),
    Row(
      command: .editLabel, defaultKeys: [key("l")],
      help: "choose the label the account is stored under (default: your name at the provider)",
      hint: "label", contexts: [.providerChoice, .flowChoice]),
    Row(
      command: .demoAnswer, defaultKeys: [key("m")],
      help: "demo only: make its approver approve, deny, or ignore the page (a silent denial)",
      hint: "demo answer", contexts: [.providerChoice, .flowChoice]),
    Row(
      command: .retry, defaultKeys: [key("r")], help: "start a fresh sign-in attempt",
      hint: "retry", contexts: [.signIn]),
    Row(
      command: .confirm, defaultKeys: [.enter], help: "choose, confirm or submit", hint: "ok",
      contexts: [
        .unlock, .notices, .filter, .providerChoice, .providerSetup, .otherProvider, .flowChoice,
        .pasteRedirect, .labelField, .rename, .passphrase, .signOut, .export,
      ]),
    Row(
      command: .yes, defaultKeys: [key("y")], help: "yes, sign out or remove", hint: nil,
      contexts: [.signOut, .damaged]),
    Row(
      command: .no, defaultKeys: [key("n")], help: "no, keep the account", hint: nil,
      contexts: [.signOut, .damaged]),
    Row(
      command: .nextField, defaultKeys: [.tab], help: "next field", hint: "next field",
      contexts: [.unlock, .providerSetup, .otherProvider, .passphrase, .export]),
    Row(
      command: .previousField, defaultKeys: [.backtab], help: "previous field", hint: nil,
      contexts: [.unlock, .providerSetup, .otherProvider, .passphrase, .export]),
    Row(
      command: .toggle, defaultKeys: [.character(" "), .left, .right],
      help: "switch between env file and clipboard", hint: nil, contexts: [.export]),
    Row(
      command: .allowOnce, defaultKeys: [key("o")],
      help: "allow the agent's held token request, this once", hint: "allow once",
      contexts: [.confirmation]),
    Row(
      command: .allowFifteenMinutes, defaultKeys: [key("f")],
      help: "allow it, and the same requester's requests for that account for 15 minutes",
      hint: "allow 15 min", contexts: [.confirmation]),
    Row(
      command: .deny, defaultKeys: [key("d")],
      help: "deny the agent's held token request (Esc too)", hint: "deny",
      contexts: [.confirmation]),
    Row(
      command: .help, defaultKeys: [key("?"), .function(1)], help: "show or close this help",
      hint: "help", contexts: browsing),
    Row(
      command: .back, defaultKeys: [.escape],
      help: "back, cancel or clear the filter (quits the unlock screen)", hint: "back",
      contexts: everywhere),
    Row(
      command: .redraw, defaultKeys: [.control("l")], help: "redraw the whole screen", hint: nil,
      contexts: everywhere),
    Row(
      command: .quit, defaultKeys: [key("q")], help: "quit authtui", hint: "quit",
      contexts: browsing),
  ]

  /// The default bindings for `KeyMap`.
  public static var defaultBindings: [KeyMap<Command, KeyContext>.Binding] {
    rows.map { .init($0.command, keys: $0.defaultKeys, in: $0.contexts) }
  }

  /// The row of `command`.
  public static func row(_ command: Command) -> Row? {
    rows.first { $0.command == command }
  }

  /// The status line's word for `command` (`Row.hint`), if the table gives one.
  static func hintWord(_ command: Command) -> String? {
    hintWords[command]
  }

  private static let hintWords = Dictionary(
    rows.compactMap { row in row.hint.map { (row.command, $0) } }, uniquingKeysWith: { $1 })
}

extension ActionTable {
  /// The key table of docs/user-guide.md (Markdown), generated from the rows so the two cannot disagree;
  /// a test compares it with that page.
  public static var markdown: String {
    var lines = [
      "| action | default keys | where | what it does |",
      "| --- | --- | --- | --- |",
    ]
    let all = Set(KeyContext.allCases)
    for row in rows {
      let keys = row.defaultKeys.map { "`\($0.displayName)`" }.joined(separator: " ")
      let place: String
      if row.contexts == all {
        place = "everywhere"
      } else if row.contexts == browsing {
        place = "everywhere but text fields"
      } else {
        place = KeyContext.allCases.filter(row.contexts.contains).map(\.title).joined(
          separator: ", ")
      }
      lines.append("| `\(row.command.rawValue)` | \(keys) | \(place) | \(row.help) |")
    }
    return lines.joined(separator: "\n")
  }
}
