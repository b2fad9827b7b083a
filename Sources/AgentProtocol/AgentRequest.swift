import Foundation
import JSON
import Locations

/// One request to the agent: a JSON object on one line, one per connection.
///
/// ```
/// {"op":"token","account":"simkl/alice","min_valid":60,"vault":"/abs/vault.db","started_at":1712345678.25}
/// {"op":"ping","vault":"/abs/vault.db"}
/// {"op":"list","vault":"/abs/vault.db"}
/// {"op":"export","account":"simkl/alice","vault":"/abs/vault.db","started_at":1712345678.25}
/// {"op":"export","account":"simkl/alice","min_valid":600,"vault":"/abs/vault.db"}
/// {"op":"logout","account":"simkl/alice","local_only":false,"vault":"/abs/vault.db"}
/// {"op":"status","vault":"/abs/vault.db"}
/// {"op":"default","account":"simkl/alice","vault":"/abs/vault.db"}
/// {"op":"default","clear":"simkl","vault":"/abs/vault.db"}
/// {"op":"rename","account":"simkl/1029384","label":"alice","vault":"/abs/vault.db"}
/// {"op":"proof","account":"sandbox/alice","min_valid":60,"method":"GET","url":"https://api.example.com/me","vault":"/abs/vault.db","started_at":1712345678.25}
/// {"op":"questions","vault":"/abs/vault.db"}
/// {"op":"confirm","id":3,"decision":"allow_once","vault":"/abs/vault.db"}
/// ```
/// `vault` is the canonical path of the vault the caller means: the agent answers only for its
/// own. `started_at` (seconds since 1970) is when the caller's `token` started, so that a token
/// obtained after it is returned as the caller's own (`AccountBook.accessToken`). `host`, sent
/// only over a socket forwarded from another machine (`authtui ssh` sets
/// `AUTHTUI_AGENT_FORWARDED=1` there), is that machine's host name as it says: the agent shows
/// it and trusts it for nothing.
public struct AgentRequest: AgentWireRequest, Equatable {
  package typealias Answer = AgentResponse

  /// What is asked.
  public enum Operation: Sendable, Equatable {
    /// A valid access token for `account` (`min_valid`, `started_at`).
    case token(account: String, minimumValidity: Int, startedAt: Date?)
    /// Whether the agent is there, and for which vault.
    case ping
    /// Every account as `authtui list` shows it (`AgentListing`), never a token.
    case list
    /// What `authtui export` writes (and `authtui exec` passes on) for `account`: its token
    /// (valid for `min_valid` seconds at least, 60 unless said; obtained after `started_at` or
    /// stored) with its expiry (`AgentExport`).
    case export(account: String, startedAt: Date?, minimumValidity: Int = 60)
    /// Signs `account` out as `authtui logout` does: revocation unless `local_only`, then
    /// deletion (`AgentSignOut`). Not repeated by a caller that got no answer.
    case logout(account: String, localOnly: Bool)
    /// What the agent is doing (`authtui agent status`): answered whichever vault the caller
    /// names, since the answer says which one the agent serves.
    case status
    /// Makes `account` its provider's default, as `authtui default ACCOUNT` does
    /// (`DefaultChange`).
    case makeDefault(account: String)
    /// Removes `provider`'s default mark, as `authtui default --clear PROVIDER` does (`clear`).
    case clearDefault(provider: String)
    /// Gives `account` the label `label`, as `authtui rename ACCOUNT LABEL` does
    /// (`RenameChange`). Not repeated by a caller that got no answer.
    case rename(account: String, label: String)
    /// A valid access token for `account` (`min_valid`, `started_at`) with, when it is
    /// DPoP-bound, a proof for a `method` request to `url` signed by the agent, which keeps
    /// the key (`AgentProof`): `authtui token ACCOUNT --header --for METHOD URL`.
    case proof(account: String, minimumValidity: Int, startedAt: Date?, method: String, url: URL)
    /// The token requests held for a person now (`ConfirmationQuestion`): what an open UI
    /// asks about. Asking also tells the agent that a UI is there to ask.
    case questions
    /// A person's answer to the held request `id` (`decision`). Taken only from a local
    /// process of the agent's user, never through a forward.
    case confirm(id: Int, decision: ConfirmationDecision)
  }

  public let operation: Operation
  /// The canonical path of the caller's vault (`vault`).
  public let vault: String
  /// The host name of the machine a forwarded request comes from, as it says (`host`); nil
  /// for a local caller.
  public let host: String?
  /// For `questions` and `confirm`: the code of `codedWords` under the vault's agent key
  /// (`vault_code`, `Vault.agentCode`), which only a process that unlocked the vault can
  /// make; nil for the other operations.
  public let vaultCode: String?

  /// The longest `host` accepted, in bytes (a DNS name is at most 253).
  public static let maximumHostBytes = ForwardedHost.maximumBytes

  /// A request for `operation` about the vault at the canonical path `vault`, from `host`
  /// when it is forwarded from another machine, with `vaultCode` for `questions` and
  /// `confirm`.
  public init(
    operation: Operation, vault: String, host: String? = nil, vaultCode: String? = nil
  ) {
    self.operation = operation
    self.vault = vault
    self.host = host
    self.vaultCode = vaultCode
  }

  /// The same request, from `host`.
  package func from(host: String?) -> AgentRequest {
    AgentRequest(operation: operation, vault: vault, host: host, vaultCode: vaultCode)
  }

  /// What `vaultCode` is the code of, for `questions` and `confirm`: the operation, its
  /// question and answer, and the vault, so that a code answers one question one way for one
  /// vault. Nil for the other operations.
  public static func codedWords(of operation: Operation, vault: String) -> String? {
    switch operation {
    case .questions: return "questions \(vault)"
    case .confirm(let id, let decision): return "confirm \(id) \(decision.rawValue) \(vault)"
    default: return nil
    }
  }

  /// The line sent, without its newline.
  public var line: String {
    var members: [(String, OrderedJSON)] = []
    switch operation {
    case .token(let account, let minimumValidity, let startedAt):
      // The front sends the same line.
      return TokenRequest(
        account: account, minimumValidity: minimumValidity,
        startedAt: startedAt?.timeIntervalSince1970, vault: vault, host: host
      ).line
    case .ping:
      members = [("op", "ping"), ("vault", .string(vault))]
    case .list:
      members = [("op", "list"), ("vault", .string(vault))]
    case .export(let account, let startedAt, let minimumValidity):
      members = [("op", "export"), ("account", .string(account))]
      // Left out when it is the default, so that an agent of the release before reads it.
      if minimumValidity != 60 { members.append(("min_valid", .int(minimumValidity))) }
      members.append(("vault", .string(vault)))
      if let startedAt { members.append(("started_at", .double(startedAt.timeIntervalSince1970))) }
    case .logout(let account, let localOnly):
      members = [
        ("op", "logout"), ("account", .string(account)), ("local_only", .bool(localOnly)),
        ("vault", .string(vault)),
      ]
    case .status:
      members = [("op", "status"), ("vault", .string(vault))]
    case .makeDefault(let account):
      members = [("op", "default"), ("account", .string(account)), ("vault", .string(vault))]
    case .clearDefault(let provider):
      members = [("op", "default"), ("clear", .string(provider)), ("vault", .string(vault))]
    case .rename(let account, let label):
      members = [
        ("op", "rename"), ("account", .string(account)), ("label", .string(label)),
        ("vault", .string(vault)),
      ]
    case .proof(let account, let minimumValidity, let startedAt, let method, let url):
      return TokenRequest(
        account: account, minimumValidity: minimumValidity,
        startedAt: startedAt?.timeIntervalSince1970,
        target: TokenRequest.Target(method: method, url: url.absoluteString), vault: vault,
        host: host
      ).line
    case .questions:
      members = [("op", "questions"), ("vault", .string(vault))]
    case .confirm(let id, let decision):
      members = [
        ("op", "confirm"), ("id", .int(id)), ("decision", .string(decision.rawValue)),
        ("vault", .string(vault)),
      ]
    }
    if let vaultCode { members.append(("vault_code", .string(vaultCode))) }
    if let host { members.append(("host", .string(host))) }
    return OrderedJSON.object(members).text
  }
}

extension AgentRequest.Operation {
  /// The operation's name on the wire (`op`).
  public var name: String {
    switch self {
    case .token: return "token"
    case .ping: return "ping"
    case .list: return "list"
    case .export: return "export"
    case .logout: return "logout"
    case .status: return "status"
    case .makeDefault, .clearDefault: return "default"
    case .rename: return "rename"
    case .proof: return "proof"
    case .questions: return "questions"
    case .confirm: return "confirm"
    }
  }

  /// The account it names as the caller wrote it, or for `default --clear` the provider;
  /// nil for the operations that name none.
  public var subject: String? {
    switch self {
    case .token(let account, _, _), .export(let account, _, _), .logout(let account, _),
      .makeDefault(let account), .rename(let account, _), .proof(let account, _, _, _, _):
      return account
    case .clearDefault(let provider): return provider
    case .ping, .list, .status, .questions, .confirm: return nil
    }
  }
}

extension AgentRequest {
  /// The longest `min_valid` accepted: a year, as for `token --min-valid`.
  public static let maximumValidity = TokenRequest.maximumValidity

  /// Reads a request line, or says what is wrong with it (for a `bad_request` answer).
  public init(parsing line: String) throws(MalformedAgentRequest) {
    guard let members = JSONValue.object(fromLine: line) else {
      throw MalformedAgentRequest("the request is not a JSON object on one line")
    }
    guard let vault = members["vault"]?.stringValue, PathText.isAbsolute(vault) else {
      throw MalformedAgentRequest("\"vault\" must be the absolute path of the vault")
    }
    let host = try Self.host(in: members)
    let operation = try Self.operation(in: members)
    var vaultCode: String?
    if Self.codedWords(of: operation, vault: vault) != nil, let value = members["vault_code"] {
      guard let code = value.stringValue else {
        throw MalformedAgentRequest("\"vault_code\" must be a string")
      }
      vaultCode = code
    }
    self.init(operation: operation, vault: vault, host: host, vaultCode: vaultCode)
  }

  /// The operation a request's members describe.
  private static func operation(in members: [String: JSONValue]) throws(MalformedAgentRequest)
    -> Operation
  {
    switch members["op"]?.stringValue {
    case "ping":
      return .ping
    case "status":
      return .status
    case "token":
      return .token(
        account: try account(in: members), minimumValidity: try minimumValidity(in: members),
        startedAt: try startedAt(in: members))
    case "list":
      return .list
    case "export":
      return .export(
        account: try account(in: members), startedAt: try startedAt(in: members),
        minimumValidity: try minimumValidity(in: members))
    case "logout":
      var localOnly = false
      if let value = members["local_only"] {
        guard case .bool(let flag) = value else {
          throw MalformedAgentRequest("\"local_only\" must be true or false")
        }
        localOnly = flag
      }
      return .logout(account: try account(in: members), localOnly: localOnly)
    case "default":
      guard let provider = members["clear"] else {
        return .makeDefault(account: try account(in: members))
      }
      guard members["account"] == nil, let provider = provider.stringValue, !provider.isEmpty
      else {
        throw MalformedAgentRequest(
          "\"clear\" must name a provider, and comes without \"account\"")
      }
      return .clearDefault(provider: provider)
    case "rename":
      guard let label = members["label"]?.stringValue, !label.isEmpty else {
        throw MalformedAgentRequest("\"label\" must be the account's new label")
      }
      return .rename(account: try account(in: members), label: label)
    case "proof":
      guard let method = members["method"]?.stringValue.flatMap(ProofTarget.method) else {
        throw MalformedAgentRequest("\"method\" must be an HTTP method (GET, POST…)")
      }
      guard let url = members["url"]?.stringValue.flatMap(ProofTarget.url) else {
        throw MalformedAgentRequest("\"url\" must be an absolute https or http URL")
      }
      return .proof(
        account: try account(in: members), minimumValidity: try minimumValidity(in: members),
        startedAt: try startedAt(in: members), method: method, url: url)
    case "questions":
      return .questions
    case "confirm":
      guard case .number(let number)? = members["id"], let id = Int(exactly: number), id > 0
      else { throw MalformedAgentRequest("\"id\" must be the number of a held request") }
      guard let decision = members["decision"]?.stringValue.flatMap(ConfirmationDecision.init)
      else {
        throw MalformedAgentRequest(
          "\"decision\" must be \"allow_once\", \"allow_15m\" or \"deny\"")
      }
      return .confirm(id: id, decision: decision)
    default:
      throw MalformedAgentRequest(
        "\"op\" must be \"token\", \"ping\", \"list\", \"export\", \"logout\", \"status\", "
          + "\"default\", \"rename\", \"proof\", \"questions\" or \"confirm\"")
    }
  }

  /// The host a forwarded request says it comes from (`host`), if it says.
  private static func host(in members: [String: JSONValue]) throws(MalformedAgentRequest)
    -> String?
  {
    guard let value = members["host"] else { return nil }
    guard let host = value.stringValue, ForwardedHost.isValid(host) else {
      throw MalformedAgentRequest(
        "\"host\" must be a host name of 1 to \(maximumHostBytes) bytes (letters, digits, "
          + "'.', '-' and '_')")
    }
    return host
  }

  /// The account a request names (`account`).
  private static func account(in members: [String: JSONValue]) throws(MalformedAgentRequest)
    -> String
  {
    guard let account = members["account"]?.stringValue, !account.isEmpty else {
      throw MalformedAgentRequest("\"account\" must name an account (PROVIDER/LABEL)")
    }
    return account
  }

  /// How many seconds the token must stay valid (`min_valid`), 60 unless it says.
  private static func minimumValidity(in members: [String: JSONValue])
    throws(MalformedAgentRequest) -> Int
  {
    guard let value = members["min_valid"] else { return 60 }
    guard case .number(let number) = value, number >= 0, number.isFinite,
      number == number.rounded(.towardZero)
    else { throw MalformedAgentRequest("\"min_valid\" must be a whole number of seconds") }
    // A whole number, only too large to be a wait: said as the command line says it.
    guard number <= Double(Self.maximumValidity), let whole = Int(exactly: number) else {
      throw MalformedAgentRequest(
        "\"min_valid\" takes at most \(Self.maximumValidity) seconds (a year)")
    }
    return whole
  }

  /// When the caller started (`started_at`), if it says.
  private static func startedAt(in members: [String: JSONValue]) throws(MalformedAgentRequest)
    -> Date?
  {
    guard let value = members["started_at"] else { return nil }
    guard case .number(let seconds) = value, seconds.isFinite, seconds > 0 else {
      throw MalformedAgentRequest("\"started_at\" must be seconds since 1970")
    }
    return Date(timeIntervalSince1970: seconds)
  }
}

/// A request the agent cannot read, and why (the `bad_request` answer's message).
public struct MalformedAgentRequest: Error, Equatable, Sendable {
  /// The sentence the `bad_request` answer carries.
  public let reason: String

  /// A refusal saying `reason`.
  public init(_ reason: String) { self.reason = reason }
}
