import AccountFacts
import Accounts
import Foundation
import Spelling
import Terminal
import Theme

/// The sign-out dialog: the question, the work, then what happened.
public struct SignOutState: Sendable, Equatable {
  /// Where the dialog stands.
  public enum Step: Sendable, Equatable {
    /// Asking; nothing has happened yet.
    case confirm
    /// Revoking and deleting.
    case working(RequestID)
    /// Done: what the provider did (the account is gone from the vault), or why the account
    /// could not be removed.
    case done(Result<SignOutReport, AccountsError>)
  }

  /// The account to sign out of.
  public var account: AccountName
  /// The provider's name, for the text.
  public var providerName: String
  /// True when the provider has a revocation endpoint; nil when unknown until discovery.
  public var canRevoke: Bool?
  /// True when the provider has a sign-out page; nil when unknown until discovery.
  public var hasSignOutPage: Bool?
  /// The request reading the provider's discovery document for the two facts above, while
  /// it runs.
  public var learning: RequestID?
  /// Why the facts could not be learned, when they could not.
  public var factsProblem: String?
  /// Where the user withdraws authtui's access at the provider, when it says.
  public var accessSettingsURL: String?
  /// Where the dialog stands.
  public var step: Step = .confirm

  /// The question for `account`.
  public init(
    account: AccountName, providerName: String, canRevoke: Bool?, accessSettingsURL: String? = nil,
    hasSignOutPage: Bool? = false
  ) {
    self.hasSignOutPage = hasSignOutPage
    self.account = account
    self.providerName = providerName
    self.canRevoke = canRevoke
    self.accessSettingsURL = accessSettingsURL
  }
}

extension SignOutState: Dialog {
  static let dialogCase = DialogCase(embed: DialogPanel.signOut) {
    if case .signOut(let dialog) = $0 { dialog } else { nil }
  }
  var context: KeyContext { .signOut }

  func hints(_ state: AppState) -> [(Command, String)] {
    switch step {
    case .confirm: return [(.confirm, "sign out"), (.back, "keep")]
    case .working: return [(.back, "close")]
    case .done(let result):
      let page = (try? result.get())?.endSessionURL
      return (page == nil ? [] : [(.openBrowser, "open sign-out page")])
        + [(.confirm, "close")]
    }
  }

  func draw(state: AppState, body: Rect, now: Date, in buffer: inout ScreenBuffer) {
    let width = min(body.size.columns - 4, 64)
    // Each sentence is a paragraph, shown whole or not at all: on a short screen the
    // question (or what came of the sign-out) keeps its rows, the explanations before it take
    // what is left in order, and the blank rows give way first.
    var paragraphs: [(lines: [(String, Role)], needed: Bool)] = []
    var gapBeforeLast = false
    func add(_ text: String, _ role: Role, needed: Bool = false) {
      paragraphs.append((TextWrap.lines(text, width: width - 4).map { ($0, role) }, needed))
    }
    func line(_ text: String, _ role: Role, needed: Bool = false) {
      paragraphs.append(([(text, role)], needed))
    }
    switch step {
    case .confirm:
      let name = providerName
      switch canRevoke {
      case true?:
        add(
          "\(name) offers token revocation: authtui asks it to revoke the tokens, then deletes "
            + "the account from the vault.", .dialog)
      case nil:
        if learning != nil {
          line(Chrome.spinner(at: now) + " Reading \(name)'s discovery document…", .statusBusy)
        } else {
          let problem = factsProblem ?? "no answer"
          add(
            "\(name)'s discovery document could not be read (\(problem)): authtui tries to "
              + "revoke the tokens and says whether it could, then deletes the account from the "
              + "vault.", .dialogWarning)
        }
      case false?:
        add(
          "\(providerName) cannot revoke tokens from here: they stay valid there until they "
            + "expire, if they ever do.", .dialogWarning)
        add(
          "authtui deletes the account from the vault; withdraw its access "
            + Revocation.accessSettingsPlace(accessSettingsURL) + ".", .dialog)
      }
      switch hasSignOutPage {
      case true?:
        add(
          "\(name) has a sign-out page: once signed out, "
            + "\(state.keyName(.openBrowser, in: .signOut)) opens it to end its browser session "
            + "too.", .dialog)
      case false?:
        add(
          "\(name) has no sign-out page: a browser session there stays open until you sign "
            + "out in the browser.", .dialog)
      case nil:
        break
      }
      gapBeforeLast = true
      add("Sign out of \(account)?", .dialog, needed: true)
    case .working:
      line(Chrome.spinner(at: now) + " Signing out…", .statusBusy, needed: true)
      add("You can close this; the sign-out goes on.", .dialog)
    case .done(let result):
      let report = try? result.get()
      if case .failure(let failure) = result {
        add(failure.message(failing: "sign out of \(account)"), .statusError, needed: true)
      } else {
        add("Signed out of \(account).", .dialog, needed: true)
      }
      // An account that could not be removed reads as one whose provider cannot revoke.
      switch report?.revocation ?? .unsupported {
      case .revoked: add("The tokens were revoked at \(providerName).", .dialog)
      case .unsupported, .skipped, .providerMissing:
        add(
          "\(providerName) cannot revoke tokens from here: withdraw authtui's access "
            + Revocation.accessSettingsPlace(accessSettingsURL) + ".", .dialogWarning)
      case .failed(_, let message): add("Revocation failed: \(message)", .dialogWarning)
      }
      if report?.endSessionURL != nil {
        add(
          "\(providerName)'s own browser session may still be open: "
            + "\(state.keyName(.openBrowser, in: .signOut)) opens its sign-out page.", .dialog)
      }
    }
    let neededRows = paragraphs.filter(\.needed).reduce(0) { $0 + $1.lines.count }
    var budget = RowBudget(rows: body.size.rows, needed: 2 + neededRows)
    let shown = paragraphs.filter { $0.needed || budget.take($0.lines.count) }
    let gap = gapBeforeLast ? budget.blank() : 0
    let top = budget.blank()
    let bottom = budget.blank()
    let rows = shown.reduce(0) { $0 + $1.lines.count }
    let inner = Chrome.dialog(
      "Sign out of \(account)", size: Size(rows: 2 + top + rows + gap + bottom, columns: width),
      in: body, buffer: &buffer)
    var page = Page(inner)
    page.skip(top)
    for (index, paragraph) in shown.enumerated() {
      if index == shown.count - 1 { page.skip(gap) }
      for (text, role) in paragraph.lines { page.line([(text, role)], in: &buffer) }
    }
  }

  func perform(_ command: Command, in state: inout AppState, now: Date) -> [Effect] {
    state.performSignOut(self, command, now: now)
  }
}

extension AppState {
  mutating func performSignOut(_ dialog: SignOutState, _ command: Command, now: Date) -> [Effect] {
    switch (dialog.step, command) {
    case (.confirm, .confirm), (.confirm, .yes):
      let id = startBusy(
        "signing out of \(dialog.account)", account: dialog.account, writesVault: true)
      updateDialog(SignOutState.self) { $0.step = .working(id) }
      return [.signOut(id, dialog.account)]
    case (.done(.success(let report)), .openBrowser):
      guard report.endSessionURL != nil else { return [] }
      return [.openSignOutPage(newRequest(), dialog.account)]
    case (_, .back), (_, .no), (.done, .confirm):
      // Leaving while the work runs lets it finish in the background; the list shows it.
      panels.removeLast()
    default:
      break
    }
    return []
  }
}
