import Accounts

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
