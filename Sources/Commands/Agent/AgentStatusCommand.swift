import Agent
import Foundation
import JSON

/// `authtui agent status [--json]`: what the running agent serves, and when it refreshes each
/// account next.
struct AgentStatusCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "status",
    summary: "Show the running agent: PID, vault, since, idle timeout, accounts, next refresh.",
    details: """
      Asks the agent on the socket (AUTHTUI_AGENT_SOCKET, else the default); needs no
      passphrase. Each account's next refresh is when the agent renews it (the UI's schedule:
      a quarter of the token's lifetime before expiry, at most 5 minutes; after a failed
      refresh, its retry); `—` when it is not renewed ahead (no refresh token, a new sign-in
      needed, no expiry). Then the requests the agent answered or refused lately (the last
      100, kept in its memory only, never a token; `ping` and `status` are not kept): when,
      what, which account, who asked (a local process by name and PID, or a request forwarded
      by an `ssh` client, with the host name the remote machine gave, as it gave it) and
      whether it was allowed or denied. Exit 1
      when no agent runs. On the remote side of `authtui ssh` (AUTHTUI_AGENT_FORWARDED=1) it
      is the other machine's agent, reached through ssh, with that machine's pid and vault
      ("forwarded": true). --json prints {"pid", "socket", "forwarded", "vault", "since",
      "idle_timeout",
      "ends_at", "accounts": [{"account", "status", "expires_at", "refreshable",
      "next_refresh", "dpop_bound", "dpop_jkt"}], "requests": [{"time", "op", "account",
      "requester": {"kind": "local", "name", "pid"} or {"kind": "forwarded", "via", "pid",
      "remote_host"}, "decision": "allowed", "denied" or "unanswered", "code", "exit",
      "confirmation"}]}, times in ISO 8601
      (UTC) or null, idle_timeout in seconds or null for none, ends_at when --lifetime ends
      the agent (null for none), dpop_jkt the RFC 7638 thumbprint of the key a DPoP-bound
      token is bound to (null for a Bearer token), code and exit the refusal's (null when
      allowed), confirmation how a person decided on a request held by --confirm ("allowed
      once in authtui", "nobody to ask"…; null when it was not held).
      """,
    options: [.flag("json", \.json, help: "print a JSON object instead of text")])

  var global = GlobalOptions()
  /// `--json`: a JSON object instead of text.
  var json = false

  func run(console: Console) async -> ExitCode {
    do throws(CommandFailure) {
      let location = AgentSocketLocation.resolve()
      let vault = VaultAccess.location(global).canonicalPath
      let answer = try await Self.statusAnswer(at: location, vault: vault)
      if case .pong(let pid, let served) = answer.response {
        console.out(
          json
            ? Self.forwardedJSON(pid: pid, vault: served, socket: location.path).text
            : Self.forwardedText(pid: pid, vault: served, socket: location.path))
        return .ok
      }
      guard case .status(let status) = answer.response else {
        if case .failure(let failure) = answer.response { throw failure }
        throw Self.notAnAgent(location)
      }
      console.out(
        json
          ? Self.json(status, socket: location.path, now: Date(), forwarded: answer.forwarded)
            .text
          : Self.text(
            status, socket: location.path, callersVault: vault, now: Date(),
            forwarded: answer.forwarded))
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }

  /// The answer of the agent of this user on `location` to `request`, and its process id, once
  /// it proved to be an authtui agent of this machine (its pid is the socket's peer, or it
  /// declined another vault): what `agent stop` and `vault lock` signal. A forwarded agent
  /// (`forwarded`) is refused with `forwarded_agent`: its pid is the other machine's.
  /// Exit 1 with a sentence when none runs there (`no_agent`), or when the socket's folder is
  /// not this user's own (`agent_socket`, the message `agent start` gives).
  static func runningAgent(
    at location: AgentSocketLocation, asking request: AgentRequest, forwarded: String
  ) async throws(CommandFailure) -> (response: AgentResponse, pid: Int32) {
    let answer = try await answeringAgent(at: location, asking: request)
    guard let pid = answer.pid, !answer.forwarded else {
      throw CommandFailure(
        exitCode: .failure,
        message: "the agent on \(location.path) is \(forwardedAgentWords); \(forwarded)",
        code: "forwarded_agent")
    }
    return (answer.response, pid)
  }

  /// The agent's answer to a `status` for `vault` (answered whatever vault it names), as
  /// `answeringAgent` proves it; from the other machine's agent through an ssh forward, which
  /// keeps its status to itself (`status_forwarded`), what a ping says (`pong`: its pid and
  /// vault).
  static func statusAnswer(at location: AgentSocketLocation, vault: String)
    async throws(CommandFailure) -> (response: AgentResponse, pid: Int32?, forwarded: Bool)
  {
    let answer = try await answeringAgent(
      at: location, asking: AgentRequest(operation: .status, vault: vault))
    guard answer.forwarded, case .failure(let failure) = answer.response,
      failure.code == "status_forwarded"
    else { return answer }
    return try await answeringAgent(
      at: location, asking: AgentRequest(operation: .ping, vault: vault))
  }

  /// `agent status` of an agent reached through an ssh forward, which shows its status only on
  /// its own machine: who it is, its pid and vault there, and where the rest is shown.
  static func forwardedText(pid: Int32, vault: String, socket: String) -> String {
    [
      "agent    \(forwardedAgentWords): its pid and vault are that machine's, and it answers "
        + "for that vault whatever vault this command names",
      "pid      \(pid)", "socket   \(socket)", "vault    \(vault)",
      "note     its accounts and the requests it answered are shown on that machine only "
        + "(`authtui agent status` there): a forward lends tokens, not the agent's log",
    ].joined(separator: "\n")
  }

  /// `forwardedText` for `--json`: `pid`, `socket`, `forwarded` (true) and `vault`.
  static func forwardedJSON(pid: Int32, vault: String, socket: String) -> OrderedJSON {
    .object([
      ("pid", .int(Int(pid))), ("socket", .string(socket)), ("forwarded", .bool(true)),
      ("vault", .string(vault)),
    ])
  }

  /// How the text names an agent reached through an ssh forward.
  static let forwardedAgentWords =
    "the agent of the other machine, reached through ssh (AUTHTUI_AGENT_FORWARDED=1)"

  /// The answer of the agent on `location` to `request`, as `runningAgent` proves it, or, when
  /// `AUTHTUI_AGENT_FORWARDED` says the socket is forwarded from another machine by ssh (the
  /// socket's peer is then sshd, not the agent), the answer of that machine's agent
  /// (`forwarded`, with no pid of this machine).
  static func answeringAgent(at location: AgentSocketLocation, asking request: AgentRequest)
    async throws(CommandFailure) -> (response: AgentResponse, pid: Int32?, forwarded: Bool)
  {
    if let problem = location.existingDirectoryProblem() { throw problem.failure }
    guard
      let answer = await AgentClient.exchangeNamingPeer(
        request, at: location,
        timeout: AgentConnection.connectTimeout + AgentConnection.tokenTimeout)
    else {
      throw CommandFailure(
        exitCode: .failure,
        message: "no agent runs on \(location.path); start one with `authtui agent start`",
        code: "no_agent")
    }
    // An agent whose queue of new connections is full cannot say who it is.
    guard let pid = answer.pid else {
      if case .failure(let failure) = answer.response { throw failure }
      throw notAnAgent(location)
    }
    switch answer.response {
    case .pong(let answered, _) where answered == pid: return (answer.response, pid, false)
    case .status(let status) where status.pid == pid: return (answer.response, pid, false)
    case .failure(let failure) where failure.code != "bad_request":
      // A refusal through a forward comes from sshd's end of it, whose pid is no agent's.
      let relayed = isForwarded && isSSHServer(pid)
      return (answer.response, relayed ? nil : pid, relayed)
    case .pong, .status:
      guard isForwarded else { throw notAnAgent(location) }
      return (answer.response, nil, true)
    default: throw notAnAgent(location)
    }
  }

  /// True when process `pid` is an ssh server (`/proc/PID/comm` starts with `sshd`): the
  /// socket's peer when it is forwarded.
  private static func isSSHServer(_ pid: Int32) -> Bool {
    let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
    return name.hasPrefix("sshd")
  }

  /// True when `AUTHTUI_AGENT_FORWARDED` is set (to anything but `0`): `authtui ssh` set it
  /// on this, the remote, side.
  static var isForwarded: Bool {
    let flag = ProcessInfo.processInfo.environment[AgentConnection.forwardedVariable] ?? ""
    return !flag.isEmpty && flag != "0"
  }

  private static func notAnAgent(_ location: AgentSocketLocation) -> CommandFailure {
    CommandFailure(
      exitCode: .failure,
      message: "what listens on \(location.path) does not answer as an authtui agent; stop it "
        + "yourself, or set AUTHTUI_AGENT_SOCKET to another path")
  }

  /// The text: the agent's facts, then a table of its accounts.
  static func text(
    _ status: AgentStatus, socket: String, callersVault: String, now: Date,
    forwarded: Bool = false
  ) -> String {
    let idle =
      status.idleTimeout.flatMap {
        $0 > 0 ? "stops after \(DurationText.words($0)) without a request" : nil
      }
      ?? "never stops by itself (`authtui agent stop` stops it)"
    var lines = [
      "pid      \(status.pid)",
      "socket   \(socket)",
      "vault    \(status.vault)",
      "since    \(iso(Date(timeIntervalSince1970: status.since)))",
      "idle     \(idle)",
      "ends     "
        + (status.endsAt.map {
          "\(iso(Date(timeIntervalSince1970: $0))) (its --lifetime: it then forgets the key and "
            + "stops)"
        } ?? "when stopped (no --lifetime)"),
    ]
    if forwarded {
      lines.insert(
        "agent    \(forwardedAgentWords): its pid and vault are that machine's, and it "
          + "answers for that vault whatever vault this command names", at: 0)
    } else if status.vault != callersVault {
      lines.append(
        "note     this command's vault is \(callersVault): the agent does not serve it, and "
          + "`authtui token` unlocks it itself")
    }
    lines.append("")
    if status.accounts.isEmpty {
      lines.append("No accounts in this vault yet.")
    } else {
      let header = ["ACCOUNT", "STATUS", "EXPIRES", "NEXT REFRESH"]
      let cells = status.accounts.map { entry in
        [
          entry.account.name.description, entry.account.status(at: now).label,
          entry.account.usable ? entry.account.expiresAt.map(iso) ?? "never" : "—",
          entry.nextRefresh.map(iso) ?? "—",
        ]
      }
      lines.append(TextTable.render(header: header, rows: cells))
    }
    lines.append("")
    lines.append(requestsText(status.requests))
    return lines.joined(separator: "\n")
  }

  /// The recent requests, oldest first, one line each.
  static func requestsText(_ requests: [AgentRequestRecord]) -> String {
    guard !requests.isEmpty else { return "No requests since the agent started." }
    let rows = requests.map { record in
      [
        iso(Date(timeIntervalSince1970: record.time)), record.operation ?? "(unreadable)",
        record.account ?? "—", record.requester.description, decisionText(record),
      ]
    }
    return "Recent requests, oldest first:\n"
      + TextTable.render(header: ["TIME", "OP", "ACCOUNT", "REQUESTER", "DECISION"], rows: rows)
  }

  /// The decision, and for a request held for confirmation how it was reached: `allowed once
  /// in authtui`, `denied (not_confirmed, exit 6): nobody to ask`.
  static func decisionText(_ record: AgentRequestRecord) -> String {
    guard let confirmation = record.confirmation else { return decisionText(record.decision) }
    if record.decision == .answered { return confirmation }
    return decisionText(record.decision) + ": " + confirmation
  }

  /// `allowed`, `denied (no_such_account, exit 4)`, or `unanswered (the agent was stopping)`.
  static func decisionText(_ decision: AgentRequestRecord.Decision) -> String {
    switch decision {
    case .answered: return "allowed"
    case .refused(let code, let exit): return "denied (\(code), exit \(exit))"
    case .unanswered: return "unanswered (the agent was stopping)"
    }
  }

  /// `--json`'s object.
  static func json(_ status: AgentStatus, socket: String, now: Date, forwarded: Bool = false)
    -> OrderedJSON
  {
    .object([
      ("pid", .int(Int(status.pid))), ("socket", .string(socket)), ("forwarded", .bool(forwarded)),
      ("vault", .string(status.vault)),
      ("since", .string(iso(Date(timeIntervalSince1970: status.since)))),
      ("idle_timeout", status.idleTimeout.flatMap { $0 > 0 ? .int($0) : nil } ?? .null),
      ("ends_at", status.endsAt.map { .string(iso(Date(timeIntervalSince1970: $0))) } ?? .null),
      (
        "accounts",
        .array(
          status.accounts.map { entry in
            .object([
              ("account", .string(entry.account.name.description)),
              ("status", .string(entry.account.status(at: now).rawValue)),
              ("expires_at", entry.account.expiresAt.map { .string(iso($0)) } ?? .null),
              ("refreshable", .bool(entry.account.refreshable)),
              ("next_refresh", entry.nextRefresh.map { .string(iso($0)) } ?? .null),
              ("dpop_bound", .bool(entry.account.isDPoPBound)),
              ("dpop_jkt", entry.account.dpopThumbprint.map { .string($0) } ?? .null),
            ])
          })
      ),
      ("requests", .array(status.requests.map(requestJSON))),
    ])
  }

  /// One recent request in `--json`.
  static func requestJSON(_ record: AgentRequestRecord) -> OrderedJSON {
    var code: OrderedJSON = .null
    var exit: OrderedJSON = .null
    if case .refused(let refusal, let status) = record.decision {
      code = .string(refusal)
      exit = .int(Int(status))
    }
    let decision: OrderedJSON =
      switch record.decision {
      case .answered: "allowed"
      case .refused: "denied"
      case .unanswered: "unanswered"
      }
    return .object([
      ("time", .string(iso(Date(timeIntervalSince1970: record.time)))),
      ("op", record.operation.map(OrderedJSON.string) ?? .null),
      ("account", record.account.map(OrderedJSON.string) ?? .null),
      ("requester", record.requester.json), ("decision", decision), ("code", code),
      ("exit", exit), ("confirmation", record.confirmation.map(OrderedJSON.string) ?? .null),
    ])
  }

  private static func iso(_ date: Date) -> String {
    ISO8601DateFormatter().string(from: date)
  }
}
