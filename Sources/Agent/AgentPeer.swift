import AgentProtocol
import Foundation
import Loopback
import Vault

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
    AgentPeer(pid: pid, name: name(of: pid) ?? "pid \(pid)", executable: executablePath(of: pid))
  }

  /// When the process started, in clock ticks after boot (`/proc/PID/stat`'s 22nd field):
  /// with the id, it names one process, not a later one given the same id. Nil when it
  /// cannot be read.
  package var startTime: UInt64? {
    LeaseHolderProcess.processStat(of: pid).flatMap { UInt64($0.startTime) }
  }

  /// The requester of a request from this peer that said it comes from `host`.
  package func requester(saying host: String?) -> Requester {
    Requester(name: name, pid: pid, executable: executable, remoteHost: host)
  }

  /// `/proc/PID/comm` without its newline; nil when it cannot be read or is empty. One
  /// `read` into a buffer on the stack: this is done for every request, and Foundation's
  /// `String(contentsOfFile:)` (a `stat`, a growing buffer, an encoding check) cost as much
  /// as the rest of the request's bookkeeping.
  private static func name(of pid: Int32) -> String? {
    let fd = open("/proc/\(pid)/comm", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    // The kernel's name is at most 15 bytes and a newline (TASK_COMM_LEN).
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
      let count = read(fd, buffer.baseAddress, buffer.count)
      guard count > 0 else { return nil }
      var bytes = buffer[..<count]
      if bytes.last == UInt8(ascii: "\n") { bytes = bytes.dropLast() }
      return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
  }

  private static func executablePath(of pid: Int32) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
