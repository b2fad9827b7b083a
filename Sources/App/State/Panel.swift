import Accounts

/// A screen shown over the account list; the UI keeps a stack of them (help over a sign-in,
/// for instance), and Esc takes the top one away.
public enum Panel: Sendable, Equatable {
  /// One account's details.
  case details(AccountName)
  /// The sign-in screens.
  case signIn(SignInState)
  /// A dialog: a form or a question (`Dialog`).
  case dialog(DialogPanel)
  /// The help screen, listing `context` first; `scroll` is the first line shown.
  case help(context: KeyContext, scroll: Int)
  /// The configuration problems found at start; `scroll` is the first line shown.
  case notices(scroll: Int)
  /// The accounts the vault cannot read, to remove them.
  case damaged(DamagedState)
}

/// The dialogs, one case each: a new dialog adds its case here and its line to `current`.
public enum DialogPanel: Sendable, Equatable {
  /// The setup form of a provider without a client id, over the sign-in's provider choice.
  case providerSetup(ProviderSetupForm)
  /// The "Other provider…" form (a provider from its issuer URL), over the provider choice.
  case otherProvider(IssuerForm)
  /// The rename dialog, or the label prompt after a sign-in (`RenameForm.signedIn`).
  case rename(RenameForm)
  /// The sign-out dialog.
  case signOut(SignOutState)
  /// The export dialog.
  case export(ExportForm)
  /// The dialog that changes the vault's passphrase.
  case passphrase(PassphraseForm)

  /// The dialog, for what every dialog does (`Dialog`).
  var current: any Dialog {
    switch self {
    case .providerSetup(let form): return form
    case .otherProvider(let form): return form
    case .rename(let form): return form
    case .signOut(let dialog): return dialog
    case .export(let form): return form
    case .passphrase(let form): return form
    }
  }
}
