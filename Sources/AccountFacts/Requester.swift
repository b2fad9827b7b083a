/// Who sent a request to the agent: a process on this machine, or a remote machine whose
/// request came through an `ssh` client's forwarded socket (`authtui ssh`, or `ssh -R` by
/// hand). The agent's log of recent requests (`agent status`) and its confirmations show it.
///
/// The process is the socket's peer as the kernel recorded it (`SO_PEERCRED`) and named by
/// `/proc/PID/comm`; the remote host is only what the remote side said (the request's `host`),
/// shown as such and never trusted for anything.
public enum Requester: Sendable, Equatable {
  /// A process of this user on this machine: its name and process id.
  case local(name: String, pid: Int32)
  /// A request forwarded from another machine: `via` the process that relayed it (an `ssh`
  /// client) with its process id, and the host name the remote side gave, if any.
  case forwarded(via: String, pid: Int32, remoteHost: String?)

  /// The process name of an OpenSSH client, which connects to the agent's socket for each
  /// connection to a socket forwarded with `ssh -R`.
  public static let sshClientName = "ssh"

  /// The requester of a connection from process `pid` named `name` (its `comm`), whose
  /// executable is `executable` (a path, when it could be read), which said it comes from
  /// `remoteHost` (nil: said nothing). Forwarded when the peer is an ssh client, or when the
  /// request says where it comes from: a request that claims to be remote is treated as
  /// remote (never the other way round).
  public init(name: String, pid: Int32, executable: String?, remoteHost: String?) {
    let base = executable.map { path in path.split(separator: "/").last.map(String.init) ?? path }
    if name == Self.sshClientName || base == Self.sshClientName || remoteHost != nil {
      self = .forwarded(via: name, pid: pid, remoteHost: remoteHost)
    } else {
      self = .local(name: name, pid: pid)
    }
  }

  /// True for a request that came from another machine.
  public var isForwarded: Bool {
    if case .forwarded = self { return true }
    return false
  }

  /// The relaying or requesting process's id.
  public var pid: Int32 {
    switch self {
    case .local(_, let pid), .forwarded(_, let pid, _): return pid
    }
  }

  /// One phrase for people: `curl (pid 4242)`, `forwarded by ssh (pid 77) from "build01"
  /// (as the remote says)`, `forwarded by ssh (pid 77), remote host not given`. The names
  /// are outside text: a caller printing them to a terminal cleans them (`TerminalText`).
  public var description: String {
    switch self {
    case .local(let name, let pid):
      return "\(name) (pid \(pid))"
    case .forwarded(let via, let pid, let host?):
      return "forwarded by \(via) (pid \(pid)) from \"\(host)\" (as the remote says)"
    case .forwarded(let via, let pid, nil):
      return "forwarded by \(via) (pid \(pid)), remote host not given"
    }
  }
}
