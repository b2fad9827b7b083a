import Loopback

#if canImport(Glibc)
  import Glibc
#endif

/// Why the agent cannot listen at its socket path; every message says what to do.
package enum AgentSocketProblem: Error, Equatable, Sendable {
  case pathTooLong(String)
  case cannotCreate(String, reason: String)
  case notAFolder(String)
  case folderNotOwned(String, owner: uid_t)
  case folderNotPrivate(String, mode: mode_t)
  case notASocket(String)
  case agentRunning(String, pid: pid_t?)
  case socket(String, Int32)

  /// The one-line message.
  package var message: String {
    let elsewhere = "or set AUTHTUI_AGENT_SOCKET to a path in a folder only you can use"
    switch self {
    case .pathTooLong(let path):
      return "the agent's socket path \(path) is longer than the \(UnixSocket.maximumPathBytes) "
        + "bytes a Unix socket allows; set AUTHTUI_AGENT_SOCKET to a shorter path"
    case .cannotCreate(let folder, let reason):
      return "cannot create the agent's folder \(folder): \(reason); create it with "
        + "`mkdir -m 700 '\(folder)'` \(elsewhere)"
    case .notAFolder(let folder):
      return "\(folder) is not a folder (a link or a file), so it cannot hold the agent's "
        + "socket; remove it \(elsewhere)"
    case .folderNotOwned(let folder, let owner):
      return "the agent's folder \(folder) belongs to another user (uid \(owner), you are uid "
        + "\(geteuid())), who could read its socket; remove it \(elsewhere)"
    case .folderNotPrivate(let folder, let mode):
      return
        "the agent's folder \(folder) is open to other users (mode 0\(String(mode, radix: 8))); "
        + "run `chmod 700 '\(folder)'` and start the agent again"
    case .notASocket(let path):
      return "\(path) exists and is not a socket; remove it \(elsewhere)"
    case .agentRunning(let path, let pid):
      let who = pid.map { "PID \($0)" } ?? "PID unknown"
      let stop = "stop it with `authtui agent stop`" + (pid.map { " or `kill \($0)`" } ?? "")
      return "an agent already runs: \(who), on \(path); \(stop), or set AUTHTUI_AGENT_SOCKET "
        + "to run another"
    case .socket("pthread_create", let code):
      return "the agent could not start its socket's thread (pthread_create: "
        + "\(String(cString: strerror(code)))); the process is at its thread limit: close "
        + "other programs and start the agent again"
    case .socket(let call, let code):
      return "the agent's socket failed (\(call): \(String(cString: strerror(code))))"
    }
  }
}
