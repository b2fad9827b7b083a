import Accounts
import Foundation

/// What the sign-out dialog shows of a sign-out: Accounts' report, with the account it was for,
/// and the failure when the account could not be removed at all. The reasons are the words
/// the dialog shows.
public struct SignOutReport: Sendable, Equatable {
  /// What happened at the provider.
  public enum Revocation: Sendable, Equatable {
    /// The provider revoked the tokens (RFC 7009).
    case revoked
    /// The provider has no revocation endpoint: the tokens stay valid there until they expire.
    case unsupported
    /// Revocation failed (the message says why); the local delete still happened.
    case failed(String)
  }

  /// The account signed out of.
  public var account: AccountName
  /// What happened at the provider.
  public var revocation: Revocation
  /// True when the account is gone from the vault.
  public var removed: Bool
  /// The provider's RP-initiated logout page, to end its own session in the browser.
  public var endSessionURL: String?
  /// Why the account could not be removed, when it could not.
  public var failure: AppFailure?

  /// Describes a sign-out.
  public init(
    account: AccountName, revocation: Revocation, removed: Bool = true,
    endSessionURL: String? = nil, failure: AppFailure? = nil
  ) {
    self.account = account
    self.revocation = revocation
    self.removed = removed
    self.endSessionURL = endSessionURL
    self.failure = failure
  }
}

extension SignOutReport {
  /// The dialog's report of `report`, a sign-out of `account` that removed it.
  public init(account: AccountName, _ report: Accounts.SignOutReport) {
    let revocation: Revocation
    switch report.revocation {
    case .revoked: revocation = .revoked
    case .unsupported, .skipped, .providerMissing: revocation = .unsupported
    case .failed(let error): revocation = .failed(error.message)
    }
    self.init(
      account: account, revocation: revocation, endSessionURL: report.endSessionURL?.absoluteString)
  }
}
