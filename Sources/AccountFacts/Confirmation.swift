import Foundation
import JSON
import Spelling

/// Which token requests the agent holds until a person allows them (`agent start --confirm
/// forwarded|always`, and `"agent": {"confirm": {ACCOUNT: …}}` in config.json): a request
/// that hands out a token (`token`, `export`, `proof`).
public enum ConfirmationMode: String, Sendable, CaseIterable, Comparable {
  /// Requests that came through an ssh forward of the agent's socket.
  case forwarded
  /// Every request, local ones too.
  case always

  /// True when a request, forwarded or not, must wait for a person under this mode.
  public func holds(forwarded: Bool) -> Bool {
    self == .always || forwarded
  }

  /// The stricter of two modes (`always` over `forwarded`), nil when neither asks.
  public static func stricter(_ first: ConfirmationMode?, _ second: ConfirmationMode?)
    -> ConfirmationMode?
  {
    switch (first, second) {
    case (nil, let mode), (let mode, nil): return mode
    case (let first?, let second?): return max(first, second)
    }
  }

  public static func < (lhs: ConfirmationMode, rhs: ConfirmationMode) -> Bool {
    lhs == .forwarded && rhs == .always
  }
}

/// A person's answer to a held request (`decision` of the `confirm` request).
public enum ConfirmationDecision: String, Sendable, CaseIterable {
  /// Allow this request only (`allow_once`).
  case allowOnce = "allow_once"
  /// Allow it, and the same requester's requests for the same account for 15 minutes
  /// (`allow_15m`).
  case allowFifteenMinutes = "allow_15m"
  /// Deny it (`deny`).
  case deny

  /// How long an `allow_15m` lasts.
  public static let standingAllowance: TimeInterval = 15 * 60
}

/// A token request the agent holds until a person allows it, as the `questions` answer lists
/// it: what an open authtui UI shows in its dialog.
public struct ConfirmationQuestion: Sendable, Equatable {
  /// The agent's number for it, unique while the agent runs (`id`).
  public let id: Int
  /// The account asked for (`account`: `PROVIDER/LABEL`).
  public let account: AccountName
  /// Who asks, in words: "ssh (pid 4242), remote host build1 as it says" (`requester`).
  public let requester: String
  /// True when it came through an ssh forward (`forwarded`).
  public let forwarded: Bool
  /// When the agent stops waiting and denies it (`deadline`, seconds since 1970).
  public let deadline: Date

  /// A question about `account`, asked by `requester`, denied at `deadline`.
  public init(
    id: Int, account: AccountName, requester: String, forwarded: Bool, deadline: Date
  ) {
    self.id = id
    self.account = account
    self.requester = requester
    self.forwarded = forwarded
    self.deadline = deadline
  }

  package var json: OrderedJSON {
    .object([
      ("id", .int(id)), ("account", .string(account.description)),
      ("requester", .string(requester)),
      ("forwarded", .bool(forwarded)), ("deadline", .double(deadline.timeIntervalSince1970)),
    ])
  }

  package init?(json members: [String: JSONValue]) {
    guard case .number(let number)? = members["id"], let id = Int(exactly: number),
      let account = members["account"]?.stringValue.flatMap(AccountName.init),
      let requester = members["requester"]?.stringValue,
      case .bool(let forwarded)? = members["forwarded"],
      case .number(let deadline)? = members["deadline"]
    else { return nil }
    self.init(
      id: id, account: account, requester: requester, forwarded: forwarded,
      deadline: Date(timeIntervalSince1970: deadline))
  }

  /// The lines a confirm command reads on its standard input (`AUTHTUI_CONFIRM_COMMAND`):
  /// the account, who asks, and one sentence.
  /// The requester's words are cleaned of control characters first: a forwarded request's
  /// host name is whatever the remote side said, and must not add lines of its own.
  public var commandInput: String {
    let requester = TerminalText.cleaned(self.requester)
    return "account: \(account)\nrequester: \(requester)\n"
      + "authtui agent: allow \(requester) a token of \(account)? "
      + "(exit 0 allows this once, any other status denies)\n"
  }
}
