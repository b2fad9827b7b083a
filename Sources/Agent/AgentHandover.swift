import AgentProtocol
import Foundation
import Isolation
import Loopback
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// The private channel between a process that starts an agent in the background (`authtui
/// agent start`, or a command under `unlock_once`) and that agent: one end of a socket pair,
/// inherited by the agent as a descriptor (`agent --handover-fd 3`).
///
/// The starter writes the vault's unlock key (32 bytes, the key-encryption key its passphrase
/// gave, so scrypt runs once) and closes its writing side; the agent answers with one line once
/// it listens, its pong (`{"ok":true,"pid":…,"vault":…}`), or the failure that stopped it
/// (`{"ok":false,"exit":3,…}`), as on its socket. Nothing else travels: the key never reaches
/// argv, the environment or a file.
package enum AgentHandover {
  /// What the starter heard back.
  package enum Readiness: Sendable, Equatable {
    /// The agent listens: its pid and the vault it serves.
    case listening(pid: Int32, vault: String)
    /// The agent stopped with this failure before it listened.
    case failed(CommandFailure)
    /// The channel closed without a line: the agent died (or never started).
    case ended
    /// No line within the deadline.
    case timedOut
  }

  /// A new channel: the starter's end and the agent's (both close-on-exec until the agent's
  /// is given to the child).
  package static func channel() -> (starter: Int32, agent: Int32)? {
    UnixSocket.pair().map { (starter: $0.0, agent: $0.1) }
  }

  /// Sends `key` on `fd` and waits up to `timeout` seconds for the agent's line. Blocking work
  /// runs on a thread of its own. The caller closes `fd`.
  package static func hand(_ key: VaultUnlockKey, over fd: Int32, timeout: TimeInterval) async
    -> Readiness
  {
    await onOwnThread {
      // An agent that refuses before it reads the key (a setting it rejects) says why and
      // closes: the key then cannot be sent, and its line is read all the same.
      if UnixSocket.sendAll(key.bytes, to: fd) { shutdown(fd, Int32(SHUT_WR)) }
      guard let line = readLine(from: fd, timeout: timeout) else { return .timedOut }
      switch line.isEmpty ? nil : AgentResponse(parsing: line) {
      case .pong(let pid, let vault)?: return .listening(pid: pid, vault: vault)
      case .failure(let failure)?: return .failed(failure)
      default: return .ended
      }
    }
  }

  /// The agent's side: the key on `fd`, or nil when none arrives within `timeout` (the starter
  /// died) or it has the wrong length.
  package static func receiveKey(from fd: Int32, timeout: TimeInterval) async -> VaultUnlockKey? {
    await onOwnThread { receiveKeyBlocking(from: fd, timeout: timeout) }
  }

  private static func receiveKeyBlocking(from fd: Int32, timeout: TimeInterval) -> VaultUnlockKey? {
    let deadline = Date().addingTimeInterval(timeout)
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: VaultUnlockKey.byteCount + 1)
    while bytes.count <= VaultUnlockKey.byteCount {
      guard waitUntilReadable(fd, deadline: deadline) else { return nil }
      let count = recv(fd, &chunk, chunk.count, 0)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += chunk[0..<count]
    }
    return VaultUnlockKey(bytes: bytes)
  }

  /// The agent's side: tells the starter how it went (its pong, or its failure).
  package static func report(_ response: AgentResponse, on fd: Int32) {
    _ = UnixSocket.sendAll(Array((response.line + "\n").utf8), to: fd)
  }

  /// One line (without its newline); "" when the channel closed first, nil at the deadline.
  private static func readLine(from fd: Int32, timeout: TimeInterval) -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while received.count < AgentConnection.maximumAnswerBytes {
      if let newline = received.firstIndex(of: UInt8(ascii: "\n")) {
        return String(decoding: received[..<newline], as: UTF8.self)
      }
      guard waitUntilReadable(fd, deadline: deadline) else { return nil }
      let count = recv(fd, &chunk, chunk.count, 0)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return "" }
      received += chunk[0..<count]
    }
    return ""
  }

  /// False once `deadline` passes with nothing to read.
  private static func waitUntilReadable(_ fd: Int32, deadline: Date) -> Bool {
    while true {
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { return false }
      let ready = UnixSocket.waitUntilReadable(
        fd, milliseconds: Int32(min(remaining, 60) * 1000) + 1)
      if ready > 0 { return true }
      if ready < 0 && errno != EINTR { return true }  // recv reports the error
    }
  }
}
