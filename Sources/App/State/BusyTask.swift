import Accounts
import Foundation

/// Background work in progress, shown with a spinner in the status line while every key still
/// responds.
public struct BusyTask: Sendable, Equatable {
  /// The request the work answers.
  public var id: RequestID
  /// What the spinner says (`refreshing simkl/alice`).
  public var label: String
  /// The account the work is about, if any (its row shows a spinner too).
  public var account: AccountName?
  /// True when the work writes the vault: quitting waits a moment for it.
  public var writesVault: Bool
  /// What the work is, where the UI needs to know: a refresh of `account` is not asked twice.
  public var kind: Kind

  /// What kind of work it is.
  public enum Kind: Sendable, Equatable {
    /// A refresh of the account's tokens (asked for, or ahead of expiry).
    case refresh
    /// Anything else.
    case other
  }

  /// Describes work in progress.
  public init(
    id: RequestID, label: String, account: AccountName? = nil, writesVault: Bool,
    kind: Kind = .other
  ) {
    self.id = id
    self.label = label
    self.account = account
    self.writesVault = writesVault
    self.kind = kind
  }
}
