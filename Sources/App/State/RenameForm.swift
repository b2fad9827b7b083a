import Accounts

/// The rename dialog (the list's rename key), and the label prompt after a sign-in whose
/// label would be only the provider's opaque identifier for the user (`signedIn`): one field
/// holding the label, checked by `AccountLabel`'s rules, stored through the vault.
public struct RenameForm: Sendable, Equatable {
  /// The account as it is named now.
  public var account: AccountName
  /// The label typed, prefilled with the account's own.
  public var label: TextField
  /// Why the label was not stored, said under the field.
  public var problem: String?
  /// The rename in flight.
  public var pending: RequestID?
  /// The account a sign-in just stored under an opaque identifier: it joins the list once it
  /// is named (or its label kept), so the list never shows it under the number.
  public var signedIn: AccountSummary?

  /// The dialog that renames `account`.
  public init(account: AccountName) {
    self.account = account
    label = TextField(account.label)
  }

  /// The prompt for a better label of `signedIn`, just stored under an opaque identifier.
  public init(naming signedIn: AccountSummary) {
    self.init(account: signedIn.name)
    self.signedIn = signedIn
  }
}
