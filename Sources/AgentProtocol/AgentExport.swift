import Foundation
import JSON

/// What `authtui export` needs to write an account's token: the token (valid for a minute at
/// least), its expiry, the account's name, and the variable an env file gets by default.
public struct AgentExport: Sendable, Equatable {
  /// `PROVIDER/LABEL` (`account`).
  public let account: String
  /// The access token (`token`).
  public let token: String
  /// When it expires, if it says (`expires_at`, seconds since 1970).
  public let expiresAt: Date?
  /// The env file's variable when `--var` is not given (`variable`: `SIMKL_TOKEN`).
  public let variable: String

  /// `account`'s `token`, expiring at `expiresAt`, written as `variable` by default.
  public init(account: String, token: String, expiresAt: Date?, variable: String) {
    self.account = account
    self.token = token
    self.expiresAt = expiresAt
    self.variable = variable
  }

  var json: OrderedJSON {
    .object([
      ("account", .string(account)), ("token", .string(token)),
      ("expires_at", expiresAt.map { .double($0.timeIntervalSince1970) } ?? .null),
      ("variable", .string(variable)),
    ])
  }

  init?(json members: [String: JSONValue]) {
    guard let account = members["account"]?.stringValue, let token = members["token"]?.stringValue,
      let expiresAt = OptionalMember.date(members["expires_at"]),
      let variable = members["variable"]?.stringValue
    else { return nil }
    self.init(account: account, token: token, expiresAt: expiresAt, variable: variable)
  }
}
