import AgentProtocol
import Foundation
import Loopback

#if canImport(Glibc)
  import Glibc
#endif

/// The process at the other end of a connection to the agent's socket: its id as the kernel
/// recorded it at `connect` (`SO_PEERCRED`), its name (`/proc/PID/comm`) and, when it can be
/// read, its executable (`/proc/PID/exe`). What makes a request's `Requester`.
package struct AgentPeer: Sendable, Equatable {
  /// The process id.
  package let pid: Int32
  /// Its name (`comm`), `pid N` when it could not be read (the process ended already).
  package let name: String
  /// The path of its executable, nil when unreadable (a process that is not dumpable, such as
  /// one that hardened itself, keeps its `exe` link to root).
  package let executable: String?

  /// A peer with every field given.
  package init(pid: Int32, name: String, executable: String?) {
    self.pid = pid
    self.name = name
    self.executable = executable
  }

  /// The peer of the connected socket `fd`, nil when the kernel gives no credentials.
  package static func of(_ fd: Int32) -> AgentPeer? {
    guard let credentials = UnixSocket.peer(of: fd) else { return nil }
    return process(credentials.pid)
  }

  /// What `/proc` says of process `pid`.
  package static func process(_ pid: Int32) -> AgentPeer {
    let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))
      .map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }
    return AgentPeer(
      pid: pid, name: comm.flatMap { $0.isEmpty ? nil : $0 } ?? "pid \(pid)",
      executable: executablePath(of: pid))
  }

  /// The requester of a request from this peer that said it comes from `host`.
  package func requester(saying host: String?) -> Requester {
    Requester(name: name, pid: pid, executable: executable, remoteHost: host)
  }

  private static func executablePath(of pid: Int32) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
