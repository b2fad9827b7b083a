import Accounts
import Foundation

/// What an export to an env file wrote.
public struct ExportReport: Sendable, Equatable {
  /// The account exported.
  public var account: AccountName
  /// The file, as the user wrote it (`~/.config/authtui/env/simkl.env`).
  public var path: String
  /// The variable holding the token (`SIMKL_TOKEN`); `NAME_EXPIRES_AT` is written beside it.
  public var variable: String
  /// When the exported token expires, when known.
  public var expiresAt: Date?

  /// Describes an export.
  public init(account: AccountName, path: String, variable: String, expiresAt: Date? = nil) {
    self.account = account
    self.path = path
    self.variable = variable
    self.expiresAt = expiresAt
  }
}
