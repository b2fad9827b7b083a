import Foundation
import Isolation
import Loopback

#if canImport(Glibc)
  import Glibc
#endif

/// How `authtui token` asks a running agent, when there is one for its vault.
///
/// Every way the agent can be missing or unusable ends in nil, and the caller unlocks the vault
/// itself without a word: no socket, a socket in a folder other users could use, an agent run
/// by another user, one that does not answer in time or answers garbage, one that serves
/// another vault. Only a real answer (a token, or a failure such as "sign-in needed") is
/// returned.
package enum AgentClient {
  /// How long connecting may take, and a ping's answer.
  package static let connectTimeout: TimeInterval = 2
  /// How long a token's answer may take: the provider request's own timeout (30 s), and as
  /// much again for waiting on another process's refresh of the same account.
  package static let tokenTimeout: TimeInterval = 60
  /// The longest answer read.
  static let maximumAnswerBytes = 64 * 1024

  /// True unless `AUTHTUI_NO_AGENT` is set (to anything but `0`).
  package static func enabled(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> Bool
  {
    let value = environment["AUTHTUI_NO_AGENT"] ?? ""
    return value.isEmpty || value == "0"
  }

  /// The agent's answer to `request`, or nil when there is no usable agent (or it declined).
  package static func ask(
    _ request: AgentRequest, at location: AgentSocketLocation, timeout: TimeInterval
  ) async -> AgentResponse? {
    // Most calls find no socket: answer that without starting a thread.
    guard location.exists else { return nil }
    return await onOwnThread {
      askBlocking(request, at: location, timeout: timeout).flatMap {
        $0.response.declined ? nil : $0.response
      }
    }
  }

  /// The answer to `request` as it came, declined or not, and the process id of the agent
  /// that gave it (the socket's peer credentials): for `agent stop` and `agent status`, which
  /// talk to whatever agent of this user listens there. Nil when none answers.
  package static func exchange(
    _ request: AgentRequest, at location: AgentSocketLocation, timeout: TimeInterval
  ) async -> (response: AgentResponse, pid: pid_t)? {
    guard location.exists else { return nil }
    return await onOwnThread { askBlocking(request, at: location, timeout: timeout) }
  }

  private static func askBlocking(
    _ request: AgentRequest, at location: AgentSocketLocation, timeout: TimeInterval
  ) -> (response: AgentResponse, pid: pid_t)? {
    guard location.directoryProblem() == nil,
      case .connected(let fd) = UnixSocket.connect(to: location.path, timeout: connectTimeout)
    else { return nil }
    defer { close(fd) }
    // An agent of another user could hand out tokens of its own choosing.
    guard let peer = UnixSocket.peer(of: fd), peer.uid == geteuid() else { return nil }
    guard UnixSocket.sendAll(Array((request.line + "\n").utf8), to: fd) else { return nil }
    shutdown(fd, Int32(SHUT_WR))

    let deadline = Date().addingTimeInterval(timeout)
    var answer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while answer.count < maximumAnswerBytes {
      if let newline = answer.firstIndex(of: UInt8(ascii: "\n")) {
        return AgentResponse(parsing: String(decoding: answer[..<newline], as: UTF8.self)).map {
          ($0, peer.pid)
        }
      }
      let remaining = deadline.timeIntervalSinceNow
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
}
