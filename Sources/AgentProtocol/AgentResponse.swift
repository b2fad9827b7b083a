import Foundation
import JSON

/// The agent's answer to one request: a JSON object on one line.
///
/// ```
/// {"ok":true,"token":"…"}
/// {"ok":true,"pid":4242,"vault":"/abs/vault.db"}
/// {"ok":false,"exit":5,"code":"sign_in_needed","message":"…"}
/// {"ok":true,"listing":{"accounts":[…],"damaged":[…]}}
/// {"ok":true,"export":{"account":"simkl/alice","token":"…","expires_at":1712349278,"variable":"SIMKL_TOKEN"}}
/// {"ok":true,"signed_out":{"account":"simkl/alice","damaged":false,"revocation":"revoked",…}}
/// {"ok":true,"pid":4242,"vault":"/abs/vault.db","since":1712345678.25,"idle_timeout":3600,"accounts":[…]}
/// ```
/// A failure carries the exit code, code and message `authtui token` gives for it. Some codes
/// are about the request rather than the account, and make the caller unlock the vault itself
/// instead (`declined`): `other_vault` (this agent serves another vault), `bad_request`,
/// `answer_too_long` (a listing over what a client reads) and `agent_stopping`.
public enum AgentResponse: Sendable, Equatable {
  /// The access token asked for.
  case token(String)
  /// The answer to a ping: who answers, for which vault.
  case pong(pid: Int32, vault: String)
  /// The request failed, or was declined.
  case failure(AgentFailure)
  /// The answer to `list`: every account, without its tokens.
  case listing(AgentListing)
  /// The answer to `export`: the token and what the caller writes with it.
  case export(AgentExport)
  /// The answer to `logout`: what the sign-out did.
  case signedOut(AgentSignOut)
  /// The answer to `status`: what the agent serves.
  case status(AgentStatus)

  /// True when the agent did not serve the request at all: the caller then asks the vault
  /// itself rather than taking this as the result.
  public var declined: Bool {
    guard case .failure(let failure) = self else { return false }
    return failure.code == "other_vault" || failure.code == "bad_request"
      || failure.code == "answer_too_long" || failure.code == "agent_stopping"
  }

  /// The line sent, without its newline.
  public var line: String {
    let json: OrderedJSON
    switch self {
    case .token(let token):
      json = ["ok": true, "token": .string(token)]
    case .pong(let pid, let vault):
      json = ["ok": true, "pid": .int(Int(pid)), "vault": .string(vault)]
    case .failure(let failure):
      json = [
        "ok": false, "exit": .int(Int(failure.exitStatus)), "code": .string(failure.code),
        "message": .string(failure.message),
      ]
    case .listing(let listing):
      json = ["ok": true, "listing": listing.json]
    case .export(let export):
      json = ["ok": true, "export": export.json]
    case .signedOut(let signOut):
      json = ["ok": true, "signed_out": signOut.json]
    case .status(let status):
      json = status.json
    }
    return json.text
  }

  /// Reads an answer line; nil for anything that is not one (the caller then falls back).
  public init?(parsing line: String) {
    guard let members = JSONValue.object(fromLine: line),
      case .bool(let ok)? = members["ok"]
    else { return nil }
    if !ok {
      // A failure exits like one: never 0, and never a status the shell reserves.
      guard case .number(let exit)? = members["exit"], let status = Int32(exactly: exit),
        (1...125).contains(status), let code = members["code"]?.stringValue,
        let message = members["message"]?.stringValue
      else { return nil }
      self = .failure(AgentFailure(exitStatus: status, code: code, message: message))
    } else if let token = members["token"]?.stringValue {
      self = .token(token)
    } else if members["since"] != nil {
      guard let status = AgentStatus(members) else { return nil }
      self = .status(status)
    } else if case .number(let pid)? = members["pid"], let whole = Int32(exactly: pid),
      let vault = members["vault"]?.stringValue
    {
      self = .pong(pid: whole, vault: vault)
    } else if let listing = members["listing"]?.objectValue.flatMap(AgentListing.init(json:)) {
      self = .listing(listing)
    } else if let export = members["export"]?.objectValue.flatMap(AgentExport.init(json:)) {
      self = .export(export)
    } else if let signOut = members["signed_out"]?.objectValue.flatMap(AgentSignOut.init(json:)) {
      self = .signedOut(signOut)
    } else {
      return nil
    }
  }
}

/// A failure as the wire carries it: what `authtui token` would exit with and print. The
/// command side turns it into its own `CommandFailure` (an unknown status becomes 1).
public struct AgentFailure: Sendable, Equatable {
  /// The exit status (`exit`).
  public let exitStatus: Int32
  /// The stable machine name (`code`): `sign_in_needed`, `other_vault`, `bad_request`…
  public let code: String
  /// The sentence for standard error (`message`), without the `authtui: ` prefix.
  public let message: String

  /// A failure exiting `exitStatus`, named `code`, saying `message`.
  public init(exitStatus: Int32, code: String, message: String) {
    self.exitStatus = exitStatus
    self.code = code
    self.message = message
  }
}

/// Every account of the vault as `authtui list` shows it: what it needs to say each account's
/// status and expiry, and the damaged rows, never a token. The caller works out the status at
/// its own time, as when it reads the vault itself.
public struct AgentListing: Sendable, Equatable {
  /// One readable account (`accounts`).
  public struct Account: Sendable, Equatable {
    /// `PROVIDER/LABEL` (`account`).
    public let name: String
    /// The provider id (`provider`).
    public let provider: String
    /// The label (`label`).
    public let label: String
    /// Whether it holds an access token it may hand out: it has one and needs no new sign-in
    /// (`usable`).
    public let usable: Bool
    /// When the access token expires, if it says (`expires_at`, seconds since 1970).
    public let expiresAt: Date?
    /// The granted scopes (`scopes`).
    public let scopes: [String]
    /// Whether it holds a refresh token (`refreshable`).
    public let refreshable: Bool

    /// An account named `name` with these facts.
    public init(
      name: String, provider: String, label: String, usable: Bool, expiresAt: Date?,
      scopes: [String], refreshable: Bool
    ) {
      self.name = name
      self.provider = provider
      self.label = label
      self.usable = usable
      self.expiresAt = expiresAt
      self.scopes = scopes
      self.refreshable = refreshable
    }
  }

  /// A row that cannot be read (`damaged`).
  public struct Damaged: Sendable, Equatable {
    /// The row id (`id`).
    public let id: Int64
    /// `PROVIDER/LABEL` when those cells still open (`name`).
    public let name: String?
    /// What is wrong with it, as a sentence (`damage`).
    public let damage: String

    /// Row `id`, named `name` if it still reads, damaged by `damage`.
    public init(id: Int64, name: String?, damage: String) {
      self.id = id
      self.name = name
      self.damage = damage
    }
  }

  /// The readable accounts.
  public let accounts: [Account]
  /// The damaged rows, by id.
  public let damaged: [Damaged]

  /// A listing of `accounts` and `damaged`.
  public init(accounts: [Account], damaged: [Damaged]) {
    self.accounts = accounts
    self.damaged = damaged
  }

  var json: OrderedJSON {
    .object([
      (
        "accounts",
        .array(
          accounts.map { account in
            .object([
              ("account", .string(account.name)), ("provider", .string(account.provider)),
              ("label", .string(account.label)), ("usable", .bool(account.usable)),
              ("expires_at", account.expiresAt.map { .double($0.timeIntervalSince1970) } ?? .null),
              ("scopes", .array(account.scopes.map(OrderedJSON.string))),
              ("refreshable", .bool(account.refreshable)),
            ])
          })
      ),
      (
        "damaged",
        .array(
          damaged.map { row in
            .object([
              ("id", .int(Int(row.id))), ("name", row.name.map(OrderedJSON.string) ?? .null),
              ("damage", .string(row.damage)),
            ])
          })
      ),
    ])
  }

  init?(json members: [String: JSONValue]) {
    guard let accounts = members["accounts"]?.arrayValue,
      let damaged = members["damaged"]?.arrayValue
    else { return nil }
    var readable: [Account] = []
    for element in accounts {
      guard let account = element.objectValue, let name = account["account"]?.stringValue,
        let provider = account["provider"]?.stringValue, let label = account["label"]?.stringValue,
        case .bool(let usable)? = account["usable"],
        let expiresAt = AgentOptionalMember.date(account["expires_at"]),
        let scopes = account["scopes"]?.stringArrayValue,
        case .bool(let refreshable)? = account["refreshable"]
      else { return nil }
      readable.append(
        Account(
          name: name, provider: provider, label: label, usable: usable, expiresAt: expiresAt,
          scopes: scopes, refreshable: refreshable))
    }
    var unreadable: [Damaged] = []
    for element in damaged {
      guard let row = element.objectValue, case .number(let number)? = row["id"],
        let id = Int64(exactly: number), let damage = row["damage"]?.stringValue
      else { return nil }
      guard let name = AgentOptionalMember.string(row["name"]) else { return nil }
      unreadable.append(Damaged(id: id, name: name, damage: damage))
    }
    self.init(accounts: readable, damaged: unreadable)
  }
}

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
      let expiresAt = AgentOptionalMember.date(members["expires_at"]),
      let variable = members["variable"]?.stringValue
    else { return nil }
    self.init(account: account, token: token, expiresAt: expiresAt, variable: variable)
  }
}

/// What signing an account out did, for `authtui logout` to say: the revocation's outcome, the
/// provider's sign-out page to open, and where the user withdraws access by hand.
public struct AgentSignOut: Sendable, Equatable {
  /// What happened at the provider (`revocation`, and for a failure `revocation_code` and
  /// `revocation_message`).
  public enum Revocation: Sendable, Equatable {
    /// The provider confirmed (`revoked`).
    case revoked
    /// The provider has no revocation endpoint (`unsupported`).
    case unsupported
    /// Not asked: `--local-only`, or no token to revoke (`skipped`).
    case skipped
    /// The provider is not configured any more (`provider_missing`).
    case providerMissing
    /// The provider refused or could not be reached (`failed`), with the error's code and
    /// sentence.
    case failed(code: String, message: String)
  }

  /// How messages name the account: `simkl/alice`, or `the damaged account #2 (simkl/alice)`
  /// (`account`).
  public let account: String
  /// True when the row was damaged and removed by id, unread (`damaged`).
  public let damaged: Bool
  /// The revocation's outcome.
  public let revocation: Revocation
  /// The provider's RP-initiated logout address to open, with its `id_token_hint`
  /// (`end_session_url`).
  public let endSessionURL: URL?
  /// Where the user withdraws authtui's access at the provider, if it says
  /// (`access_settings_url`).
  public let accessSettingsURL: String?

  /// A sign-out of `account` that did `revocation`.
  public init(
    account: String, damaged: Bool, revocation: Revocation, endSessionURL: URL?,
    accessSettingsURL: String?
  ) {
    self.account = account
    self.damaged = damaged
    self.revocation = revocation
    self.endSessionURL = endSessionURL
    self.accessSettingsURL = accessSettingsURL
  }

  var json: OrderedJSON {
    var members: [(String, OrderedJSON)] = [
      ("account", .string(account)), ("damaged", .bool(damaged)),
    ]
    switch revocation {
    case .revoked: members.append(("revocation", "revoked"))
    case .unsupported: members.append(("revocation", "unsupported"))
    case .skipped: members.append(("revocation", "skipped"))
    case .providerMissing: members.append(("revocation", "provider_missing"))
    case .failed(let code, let message):
      members += [
        ("revocation", "failed"), ("revocation_code", .string(code)),
        ("revocation_message", .string(message)),
      ]
    }
    members += [
      ("end_session_url", endSessionURL.map { .string($0.absoluteString) } ?? .null),
      ("access_settings_url", accessSettingsURL.map(OrderedJSON.string) ?? .null),
    ]
    return .object(members)
  }

  init?(json members: [String: JSONValue]) {
    guard let account = members["account"]?.stringValue,
      case .bool(let damaged)? = members["damaged"]
    else { return nil }
    let revocation: Revocation
    switch members["revocation"]?.stringValue {
    case "revoked": revocation = .revoked
    case "unsupported": revocation = .unsupported
    case "skipped": revocation = .skipped
    case "provider_missing": revocation = .providerMissing
    case "failed":
      guard let code = members["revocation_code"]?.stringValue,
        let message = members["revocation_message"]?.stringValue
      else { return nil }
      revocation = .failed(code: code, message: message)
    default: return nil
    }
    // An address that would not be written back the same is not one the agent sent.
    guard let endSessionText = AgentOptionalMember.string(members["end_session_url"]) else {
      return nil
    }
    let endSessionURL = endSessionText.flatMap { URL(string: $0) }
    guard endSessionURL?.absoluteString == endSessionText else { return nil }
    guard let accessSettingsURL = AgentOptionalMember.string(members["access_settings_url"])
    else { return nil }
    self.init(
      account: account, damaged: damaged, revocation: revocation, endSessionURL: endSessionURL,
      accessSettingsURL: accessSettingsURL)
  }
}

/// The optional members of the answers: a value of the member's type, or `null` (or absent)
/// for none. The outer nil is "neither": the answer does not read.
enum AgentOptionalMember {
  /// A time in seconds since 1970.
  static func date(_ value: JSONValue?) -> Date?? {
    switch value {
    case .number(let seconds)?:
      return seconds.isFinite ? .some(Date(timeIntervalSince1970: seconds)) : nil
    case .null?, nil: return .some(nil)
    default: return nil
    }
  }

  /// A string.
  static func string(_ value: JSONValue?) -> String?? {
    switch value {
    case .string(let text)?: return .some(text)
    case .null?, nil: return .some(nil)
    default: return nil
    }
  }
}

/// What a running agent reports about itself (`authtui agent status`). Times are seconds since
/// 1970, as on the wire, so that an answer read back is the same value.
public struct AgentStatus: Sendable, Equatable {
  /// One account of the vault, as the agent sees it (`accounts[]`).
  public struct Account: Sendable, Equatable {
    /// `PROVIDER/LABEL` (`account`).
    public var name: String
    /// When its access token expires (`expires_at`), if known.
    public var expiresAt: TimeInterval?
    /// True when it holds no usable token until a new sign-in (`sign_in_needed`).
    public var signInNeeded: Bool
    /// True when it holds a refresh token (`refreshable`).
    public var refreshable: Bool
    /// When the agent refreshes it next (`next_refresh`): `RefreshSchedule`'s time, nil when it
    /// is not refreshed ahead (no refresh token, a new sign-in needed, no expiry).
    public var nextRefresh: TimeInterval?

    /// An account named `name`.
    public init(
      name: String, expiresAt: TimeInterval?, signInNeeded: Bool, refreshable: Bool,
      nextRefresh: TimeInterval?
    ) {
      self.name = name
      self.expiresAt = expiresAt
      self.signInNeeded = signInNeeded
      self.refreshable = refreshable
      self.nextRefresh = nextRefresh
    }
  }

  /// The agent's process id (`pid`).
  public var pid: Int32
  /// The canonical path of the vault it serves (`vault`).
  public var vault: String
  /// When it started answering (`since`).
  public var since: TimeInterval
  /// Its idle timeout in seconds (`idle_timeout`); nil when it never stops by itself.
  public var idleTimeout: Int?
  /// The accounts it serves, in the vault's order (`accounts`).
  public var accounts: [Account]

  /// A status with every field given.
  public init(
    pid: Int32, vault: String, since: TimeInterval, idleTimeout: Int?, accounts: [Account]
  ) {
    self.pid = pid
    self.vault = vault
    self.since = since
    self.idleTimeout = idleTimeout
    self.accounts = accounts
  }

  var json: OrderedJSON {
    let accounts = self.accounts.map { account -> OrderedJSON in
      .object([
        ("account", .string(account.name)),
        ("expires_at", account.expiresAt.map { .double($0) } ?? .null),
        ("sign_in_needed", .bool(account.signInNeeded)),
        ("refreshable", .bool(account.refreshable)),
        ("next_refresh", account.nextRefresh.map { .double($0) } ?? .null),
      ])
    }
    return .object([
      ("ok", true), ("pid", .int(Int(pid))), ("vault", .string(vault)), ("since", .double(since)),
      ("idle_timeout", idleTimeout.map { .int($0) } ?? .null), ("accounts", .array(accounts)),
    ])
  }

  /// Reads the members of a status answer; nil when one is missing or of the wrong kind.
  init?(_ members: [String: JSONValue]) {
    guard case .number(let pid)? = members["pid"], let whole = Int32(exactly: pid),
      let vault = members["vault"]?.stringValue, case .number(let since)? = members["since"],
      case .array(let entries)? = members["accounts"],
      let idleTimeout = Self.optional(members["idle_timeout"], { Int(exactly: $0) })
    else { return nil }
    var accounts: [Account] = []
    for entry in entries {
      guard case .object(let fields) = entry, let name = fields["account"]?.stringValue,
        case .bool(let signInNeeded)? = fields["sign_in_needed"],
        case .bool(let refreshable)? = fields["refreshable"],
        let expiresAt = Self.optional(fields["expires_at"], { $0 }),
        let nextRefresh = Self.optional(fields["next_refresh"], { $0 })
      else { return nil }
      accounts.append(
        Account(
          name: name, expiresAt: expiresAt, signInNeeded: signInNeeded,
          refreshable: refreshable, nextRefresh: nextRefresh))
    }
    guard idleTimeout.map({ $0 >= 0 }) ?? true else { return nil }
    self.init(
      pid: whole, vault: vault, since: since, idleTimeout: idleTimeout, accounts: accounts)
  }

  /// A number or null: `.some(nil)` for null, nil when the member is missing or neither.
  private static func optional<Value>(_ value: JSONValue?, _ convert: (Double) -> Value?)
    -> Value??
  {
    switch value {
    case .null?: return .some(nil)
    case .number(let number)?: return convert(number).map { .some($0) }
    default: return nil
    }
  }
}
