import AccountFacts

/// What a sign-in stored, as the UI shows it (`.startSignIn`'s result), and whether the label is
/// only the provider's opaque identifier for the user (Accounts' `SignedInAccount`): then the
/// UI asks for a better one before the account joins the list.
public struct SignedInSummary: Sendable, Equatable {
  /// The account as stored.
  public var account: AccountSummary
  /// True when no label was asked for and the provider named the user only by an opaque
  /// `sub`, so the label is something like `1029384`.
  public var labelIsSubject: Bool

  /// A stored account and what its label is made of.
  public init(_ account: AccountSummary, labelIsSubject: Bool = false) {
    self.account = account
    self.labelIsSubject = labelIsSubject
  }
}
