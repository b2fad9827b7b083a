import Foundation
import Spelling

/// A token handed out with less validity than the caller asked for (`--min-valid`) because
/// the refresh was withheld, not because it failed (`Cause`). The token is still valid and is
/// handed out; the caller says so on standard error.
public struct TokenShortfall: Sendable, Equatable {
  /// Why no refresh was sent.
  public enum Cause: Sendable, Equatable {
    /// An earlier refresh of the account was interrupted after its request was sent, so its
    /// refresh token may be spent, and trying it again could make the provider revoke the
    /// whole grant ("no blind replay", docs/scripting.md).
    case refreshInterrupted
    /// The vault cannot keep the refresh's answer: the disk holding it has no room
    /// (`VaultError.noRoomForRefresh`) or it cannot be written (`VaultError.readOnly`), whose
    /// sentence `reason` is. Nothing was sent.
    case cannotStore(reason: String)
  }

  /// The account whose token it is.
  public let account: AccountName
  /// The whole seconds the token is still valid for when it was handed out.
  public let secondsLeft: Int
  /// The seconds the caller asked for (`--min-valid`).
  public let minimumValidity: Int
  /// Why it was not refreshed.
  public let cause: Cause

  /// The shortfall of `account`'s token, valid `secondsLeft` more against `minimumValidity`.
  public init(
    account: AccountName, secondsLeft: Int, minimumValidity: Int,
    cause: Cause = .refreshInterrupted
  ) {
    self.account = account
    self.secondsLeft = secondsLeft
    self.minimumValidity = minimumValidity
    self.cause = cause
  }

  /// What standard error says: how long the token lasts, why it was not refreshed, and what
  /// to do.
  public var message: String {
    let short =
      "\(account)'s token is valid for \(DurationSpelling.words(max(secondsLeft, 0))) more, "
      + "less than --min-valid \(minimumValidity) asks: "
    switch cause {
    case .refreshInterrupted:
      return short + "it was not refreshed because an earlier refresh was interrupted after its "
        + "request was sent, and sending that refresh token again could make the provider "
        + "revoke the sign-in. It is refreshed once it expires; for a longer-lived token now, "
        + "sign in again with `\(AccountsError.signInCommand(for: account))`"
    case .cannotStore(let reason):
      return short + reason
    }
  }
}
