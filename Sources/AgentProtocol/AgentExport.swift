import Foundation
import JSON

/// What `authtui export` needs to write an account's token: the token (valid for a minute at
/// least), its expiry, the account's name, and the variable an env file gets by default.
public struct AgentExport: Sendable, Equatable {
  /// The account (`account`: `PROVIDER/LABEL`).
  public let account: AccountName
  /// The access token (`token`).
  public let token: String
  /// When it expires, if it says (`expires_at`, seconds since 1970).
  public let expiresAt: Date?
  /// The env file's variable when `--var` is not given (`variable`: `SIMKL_TOKEN`).
  public let variable: String
  /// The token's scheme (`token_type`): `DPoP` for a DPoP-bound token (RFC 9449), which works
  /// only with proofs of a key the vault keeps, else `Bearer` (also when an agent of the
  /// release before leaves it out).
  public let tokenType: String
  /// A sentence for standard error when the token has less validity left than was asked for
  /// (`note`: a `TokenShortfall`'s); nil otherwise, when the member is left out.
  public let note: String?

  /// `account`'s `token`, expiring at `expiresAt`, written as `variable` by default, of
  /// `tokenType`, with `note` to say.
  public init(
    account: AccountName, token: String, expiresAt: Date?, variable: String,
    tokenType: String = "Bearer", note: String? = nil
  ) {
    self.account = account
    self.token = token
    self.expiresAt = expiresAt
    self.variable = variable
    self.tokenType = tokenType
    self.note = note
  }

  /// True when the token is DPoP-bound: a copy of it is useless without proofs.
  public var isDPoPBound: Bool { tokenType == "DPoP" }

  var json: OrderedJSON {
    var members: [(String, OrderedJSON)] = [
      ("account", .string(account.description)), ("token", .string(token)),
      ("expires_at", expiresAt.map { .double($0.timeIntervalSince1970) } ?? .null),
      ("variable", .string(variable)),
    ]
    // Left out for a Bearer token: the answer of the release before, which it means.
    if tokenType != "Bearer" { members.append(("token_type", .string(tokenType))) }
    if let note { members.append(("note", .string(note))) }
    return .object(members)
  }

  init?(json members: [String: JSONValue]) {
    guard let account = members["account"]?.stringValue.flatMap(AccountName.init),
      let token = members["token"]?.stringValue,
      let expiresAt = OptionalMember.date(members["expires_at"]),
      let variable = members["variable"]?.stringValue
    else { return nil }
    let tokenType: String
    switch members["token_type"] {
    case nil: tokenType = "Bearer"
    case .string(let type)? where type == "Bearer" || type == "DPoP": tokenType = type
    default: return nil
    }
    self.init(
      account: account, token: token, expiresAt: expiresAt, variable: variable,
      tokenType: tokenType, note: members["note"]?.stringValue)
  }
}
