#if canImport(Glibc)
  import Glibc
#endif

/// One request to a running agent and its answer, on the calling thread: what `authtui token`
/// does, in the full program (through `AgentClient`, off the cooperative pool) and in the small
/// front that answers `token` without loading the rest. The request and answer types are the
/// caller's: `AgentRequest` and `AgentResponse` in the full program, `TokenRequest` and
/// `TokenAnswer` in the front. Times are in seconds.
///
/// Every way the agent can be missing or unusable ends in nil, and the caller unlocks the vault
/// itself without a word: no socket, a socket in a folder other users could use, an agent run
/// by another user, one that does not answer in time or answers garbage, one that serves
/// another vault. Only a real answer (a token, or a failure such as "sign-in needed") is
/// returned.
///
/// An agent that is there but cannot take the connection now is not "no agent": one at its
/// limit of connections answers `agent_busy` at once, and one whose queue of new connections
/// is full makes `connect` fail with EAGAIN after `connectTimeout`. The caller tries again for
/// `busyRetryWindow`, then gets that failure as the answer (exit 1, "try again in a moment"):
/// unlocking the vault itself instead would ask for a passphrase a script does not have, and
/// run a 128 MiB key derivation in each of a burst of callers.
package enum AgentConnection {
  /// How long connecting may take, and a ping's answer.
  package static let connectTimeout: Double = 2
  /// How long a token request the agent holds (`agent start --confirm`) waits for a person
  /// before it is denied.
  package static let confirmationWindow: Double = 60
  /// How long a token's answer may take: the provider request's own timeout (30 s), as much
  /// again for waiting on another process's refresh of the same account, and the wait for a
  /// person when the agent holds the request.
  package static let tokenTimeout: Double = 60 + confirmationWindow
  /// The longest answer read.
  package static let maximumAnswerBytes = 64 * 1024
  /// How long a caller keeps trying an agent that answered `agent_busy`.
  package static let busyRetryWindow: Double = 2
  /// The `code` of the answer of an agent that cannot take the connection now.
  package static let busyCode = "agent_busy"

  /// True unless `AUTHTUI_NO_AGENT` is set (to anything but `0`) among the environment
  /// variables `variable` reads.
  package static func enabled(variable: (String) -> String?) -> Bool {
    let value = variable("AUTHTUI_NO_AGENT") ?? ""
    return value.isEmpty || value == "0"
  }

  /// What became of a request sent to the agent.
  package enum Exchange<Answer: AgentWireAnswer>: Sendable, Equatable {
    /// No usable agent took it (none there, not ours, or it declined the request): nothing
    /// was done, and the caller does the work itself.
    case noAgent
    /// The request went to the agent, but no answer that reads came back (it stopped, or took
    /// too long): it may have acted on it.
    case unanswered
    /// The agent's answer (never a declined one).
    case answered(Answer)
  }

  /// The agent's answer to `request`, or nil when there is no usable agent, it declined, or
  /// it did not answer. Blocks the calling thread for at most `timeout` seconds after
  /// connecting.
  package static func ask<Request: AgentWireRequest>(
    _ request: Request, at location: AgentSocketLocation, timeout: Double
  ) -> Request.Answer? {
    guard case .answered(let response) = exchange(request, at: location, timeout: timeout)
    else { return nil }
    return response
  }

  /// Sends `request` to the agent at `location` and says what became of it; a caller whose
  /// request must not run twice (`logout`) tells `unanswered` from `noAgent`.
  package static func exchange<Request: AgentWireRequest>(
    _ request: Request, at location: AgentSocketLocation, timeout: Double
  ) -> Exchange<Request.Answer> {
    let giveUp = ContinuousClock.now + .seconds(busyRetryWindow)
    while true {
      let exchange = exchangeOnce(request, at: location, timeout: timeout)
      guard case .answered(let answer) = exchange, answer.failed?.code == busyCode,
        ContinuousClock.now < giveUp
      else { return exchange }
      // 50 to 100 ms, at random: a burst of callers does not come back all at once.
      usleep(UInt32.random(in: 50_000...100_000))
    }
  }

  private static func exchangeOnce<Request: AgentWireRequest>(
    _ request: Request, at location: AgentSocketLocation, timeout: Double
  ) -> Exchange<Request.Answer> {
    let fd: Int32
    switch connect(to: location) {
    case .agent(let connected, _): fd = connected
    case .queueFull: return .answered(.failure(queueFull(location)))
    case .none: return .noAgent
    }
    defer { close(fd) }
    // From here on the agent may have read the request, even when sending fails part-way.
    guard let answer = answer(to: request, on: fd, timeout: timeout) else { return .unanswered }
    return answer.failed?.declinesRequest == true ? .noAgent : .answered(answer)
  }

  /// The answer to `request` as it came, declined or not, and the process id of the agent
  /// that gave it (the socket's peer credentials): for `agent stop` and `agent status`, which
  /// talk to whatever agent of this user listens there. Nil when none answers. An agent whose
  /// queue of new connections is full gives no pid: the answer is then the `agent_busy`
  /// failure with a nil `pid`.
  package static func exchangeNamingPeer<Request: AgentWireRequest>(
    _ request: Request, at location: AgentSocketLocation, timeout: Double
  ) -> (response: Request.Answer, pid: pid_t?)? {
    switch connect(to: location) {
    case .agent(let fd, let pid):
      defer { close(fd) }
      return answer(to: request, on: fd, timeout: timeout).map { ($0, pid) }
    case .queueFull: return (.failure(queueFull(location)), nil)
    case .none: return nil
    }
  }

  /// What connecting to the socket at `location` found.
  private enum Connection {
    /// An agent of this user took the connection (`fd`, which the caller closes).
    case agent(fd: Int32, pid: pid_t)
    /// Its queue of new connections stayed full for `connectTimeout`.
    case queueFull
    /// No usable agent: no socket, a folder others could use, nobody listening, or a peer of
    /// another user.
    case none
  }

  private static func connect(to location: AgentSocketLocation) -> Connection {
    guard location.exists, location.directoryProblem() == nil else { return .none }
    switch UnixSocket.connect(to: location.path, timeout: connectTimeout) {
    case .connected(let fd):
      // An agent of another user could hand out tokens of its own choosing.
      guard let peer = UnixSocket.peer(of: fd), peer.uid == geteuid() else {
        close(fd)
        return .none
      }
      return .agent(fd: fd, pid: peer.pid)
    case .failed(EAGAIN): return .queueFull
    default: return .none
    }
  }

  /// The failure for an agent whose queue of new connections stayed full for `connectTimeout`
  /// (it is stopped, or swamped): the same `agent_busy` as its own answer at its limit.
  static func queueFull(_ location: AgentSocketLocation) -> CommandFailure {
    CommandFailure(
      exitStatus: 1, code: busyCode,
      message: "the agent on \(location.path) is busy (its queue of new connections is full); "
        + "try again in a moment")
  }

  /// The variable `authtui ssh` sets on the remote side: the agent's socket there is
  /// forwarded from another machine, and requests say which host they come from.
  package static let forwardedVariable = "AUTHTUI_AGENT_FORWARDED"

  /// This machine's host name when `AUTHTUI_AGENT_FORWARDED` is set (to anything but `0`)
  /// among the variables `variable` reads, for the `host` of each request; else nil.
  package static func forwardedHost(variable: (String) -> String?) -> String? {
    guard let flag = variable(forwardedVariable), !flag.isEmpty, flag != "0" else { return nil }
    var name = [CChar](repeating: 0, count: 256)
    guard gethostname(&name, name.count - 1) == 0 else { return nil }
    // At most 64 bytes on Linux (HOST_NAME_MAX), well within what the agent accepts; a byte
    // a host name does not hold (the kernel takes any) is sent as `_`.
    let host = String(
      decoding: name.prefix { $0 != 0 }.map {
        ForwardedHost.isHostNameByte(UInt8(bitPattern: $0)) ? UInt8(bitPattern: $0) : 0x5F
      }, as: UTF8.self)
    return host.isEmpty ? nil : host
  }

  private static func answer<Request: AgentWireRequest>(
    to request: Request, on fd: Int32, timeout: Double
  ) -> Request.Answer? {
    // A request sent from a machine the agent's socket was forwarded to says so, whichever
    // command sends it (the front's `token` or the full program's).
    let stated =
      request.host != nil
      ? request
      : request.from(host: forwardedHost(variable: { getenv($0).map { String(cString: $0) } }))
    // Read even when sending failed: an agent at its limit answers `agent_busy` and closes
    // without reading, and its line is still there to read.
    let sent = UnixSocket.sendAll(Array((stated.line + "\n").utf8), to: fd)
    shutdown(fd, Int32(SHUT_WR))
    let line = readAnswer(on: fd, timeout: sent ? timeout : connectTimeout)
    let answer = line.flatMap(Request.Answer.init(parsing:))
    guard sent || answer?.failed?.code == busyCode else { return nil }
    return answer
  }

  /// The answer's line, without its newline; nil when none came in `timeout` seconds.
  private static func readAnswer(on fd: Int32, timeout: Double) -> String? {
    let deadline = ContinuousClock.now + .seconds(timeout)
    var answer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while answer.count < maximumAnswerBytes {
      if let newline = answer.firstIndex(of: UInt8(ascii: "\n")) {
        return String(decoding: answer[..<newline], as: UTF8.self)
      }
      let remaining = seconds(ContinuousClock.now.duration(to: deadline))
      guard remaining > 0 else { return nil }
      let ready = UnixSocket.waitUntilReadable(
        fd, milliseconds: Int32(min(remaining, 60) * 1000) + 1)
      if ready == 0 || (ready < 0 && errno == EINTR) { continue }
      guard ready > 0 else { return nil }
      let count = recv(fd, &chunk, chunk.count, 0)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return nil }
      answer += chunk[0..<count]
    }
    return nil
  }

  /// `duration` in seconds.
  private static func seconds(_ duration: Duration) -> Double {
    let (whole, fraction) = duration.components
    return Double(whole) + Double(fraction) / 1e18
  }
}
