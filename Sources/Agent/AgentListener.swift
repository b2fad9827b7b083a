import AuthCore
import Foundation
import Isolation
import Loopback

#if canImport(Glibc)
  import Glibc
#endif

/// The agent's end of its Unix socket: one request line in, one answer line out, per connection.
///
/// It stands on Loopback's `SocketRequestServer`, the thread-and-poll server under the loopback
/// HTTP server too. Each connection is checked first: the peer's uid (`SO_PEERCRED`) must be
/// this process's, else it is closed unanswered. Then it has `readTimeout` to send one line of
/// at most `maximumRequestBytes`; the line (or the verdict that it was too long or too slow)
/// goes to `handler` in a task of its own, with the process that sent it (`AgentPeer`), and
/// its answer (if any) is written before the connection closes.
///
/// Those tasks all run on one serial queue, in turn between their awaits: the vault's own
/// (`Vault.sharedTaskExecutor`), since nearly all an answer does is ask the vault. Nothing they
/// do blocks: a provider's answer and a person's confirmation are awaited, and the answer is
/// sent without waiting. One long-lived queue answers a burst of callers on one thread; a new
/// queue per request, as the loopback HTTP server has (its sends may wait), spent about half
/// the agent's CPU in thread hand-offs (200 callers at once: about 210 µs per request, against
/// 110 µs on one queue). And a queue of the listener's beside the vault's still handed each
/// request to the vault's thread and back: five context switches and 390 µs of the agent's CPU
/// per `token`, against three and 235 µs on the vault's queue. The price: while the vault
/// waits for another process's write (SQLite's busy wait, at most the vault's busy timeout),
/// every answer waits with it, a `ping` too, where before only those that asked the vault did.
package final class AgentListener: Sendable {
  /// The longest request line, newline included.
  static let maximumRequestBytes = 4096
  /// How long a client may take to send its request.
  package static let readTimeout: TimeInterval = 5
  /// Connections being read at once; more are closed at once.
  package static let maximumConnections = 128

  /// What arrived on one connection.
  package enum Delivery: Sendable, Equatable {
    /// One line, without its newline.
    case request(String)
    /// More than `maximumRequestBytes` without a newline.
    case tooLong
    /// No complete line within `readTimeout`.
    case tooSlow
  }

  private let server: SocketRequestServer<Delivery>

  /// Serves the listening socket `listenFD` (non-blocking), which the listener then owns.
  /// `refused` hears of every connection from another user (who it was: "uid 1001, pid 42",
  /// or "an unknown user"); `busy` is the answer line for a connection beyond
  /// `maximumConnections` (the `agent_busy` failure); `handler` answers the rest, knowing
  /// which process sent it (nil: close without an answer), in tasks that prefer `answering`
  /// (the vault's `sharedTaskExecutor`), and must never block (its tasks share one queue: see
  /// the type's documentation). `readTimeout` is `AgentListener.readTimeout` but in tests.
  package init(
    listening listenFD: Int32,
    readTimeout: TimeInterval = AgentListener.readTimeout,
    refused: @escaping @Sendable (_ who: String) -> Void,
    busy: String,
    answering answers: QueueTaskExecutor,
    handler: @escaping @Sendable (Delivery, AgentPeer) async -> String?
  ) throws(AgentSocketProblem) {
    let uid = geteuid()
    let busyLine = Array((busy + "\n").utf8)
    do {
      server = try SocketRequestServer(
        listening: listenFD,
        rules: .init(readTimeout: readTimeout, maxConnections: Self.maximumConnections),
        threadName: "authtui-agent-listener", answering: .allOn(answers),
        admit: { fd in
          // Only this user may ask: the folder's mode keeps others out, and this check keeps
          // out anyone who gets past it (root, or a folder whose mode changed while we run).
          let peer = UnixSocket.peer(of: fd)
          guard let peer, peer.uid == uid else {
            refused(peer.map { "uid \($0.uid), pid \($0.pid)" } ?? "an unknown user")
            return false
          }
          return true
        },
        overloaded: { fd in
          // Said at once, without reading the request: the caller tries again in a moment and
          // then says the agent is busy, rather than unlocking the vault by itself (a
          // passphrase it may not have, and a key derivation for each of a burst of callers).
          _ = UnixSocket.sendAll(busyLine, to: fd, flags: Int32(MSG_DONTWAIT))
          shutdown(fd, Int32(SHUT_WR))
        },
        frame: Self.frame, timedOut: { _ in .tooSlow },
        respond: { delivery, fd in
          // Non-blocking: an answer (at most a few kilobytes) fits the socket's buffer, and a
          // client that stopped reading cannot hold this task. A peer the kernel cannot name
          // was admitted with credentials, so that does not happen; it would get no answer.
          if let peer = AgentPeer.of(fd), let answer = await handler(delivery, peer) {
            _ = UnixSocket.sendAll(Array((answer + "\n").utf8), to: fd, flags: Int32(MSG_DONTWAIT))
            shutdown(fd, Int32(SHUT_WR))
          }
          close(fd)
        })
    } catch {
      throw .socket(error.call, error.code)
    }
  }

  /// One line, or the verdict that it is too long; at end of input what was sent is the
  /// request, if anything.
  static func frame(_ received: [UInt8], ended: Bool) -> SocketRequestServer<Delivery>.Framing {
    if let newline = received.firstIndex(of: UInt8(ascii: "\n")), newline < maximumRequestBytes {
      return .complete(.request(String(decoding: received[..<newline], as: UTF8.self)))
    }
    if received.count >= maximumRequestBytes { return .complete(.tooLong) }
    guard ended else { return .waiting }
    return received.isEmpty
      ? .close : .complete(.request(String(decoding: received, as: UTF8.self)))
  }

  /// Stops accepting, closes the connections still being read and the listening socket, and
  /// returns once that is done. Answers already being worked on still go out.
  package func stop() async {
    await server.stop()
  }
}
