#if canImport(Glibc)
  import Glibc
#endif

/// Why the agent cannot listen at its socket path; every message says what to do.
///
/// `agent start`, `agent`, `agent status`, `agent stop` and `status` give the same message for
/// a folder that is not this user's own: which path, what is wrong with it, and the fix.
package enum AgentSocketProblem: Error, Equatable, Sendable {
  case pathTooLong(String)
  case cannotCreate(String, reason: String)
  /// Something else than a folder is at the folder's path: `kind` says what ("a symbolic
  /// link"), `owner` whose it is.
  case notAFolder(String, kind: String, owner: uid_t)
  /// Something else than a folder (`kind`) is on the way to the folder: `XDG_RUNTIME_DIR` or
  /// `AUTHTUI_AGENT_SOCKET` names a file. It is the user's, and not to be removed.
  case notAFolderOnTheWay(String, kind: String, socket: String)
  case folderNotOwned(String, owner: uid_t, mode: mode_t)
  case folderNotPrivate(String, mode: mode_t)
  case notASocket(String)
  case agentRunning(String, pid: pid_t?)
  case socket(String, Int32)

  /// The one-line message.
  package var message: String {
    let elsewhere = "or set AUTHTUI_AGENT_SOCKET to a path in a folder only you can use"
    let elsewhereOrRuntime =
      elsewhere + " (or XDG_RUNTIME_DIR to your own runtime folder)"
    switch self {
    case .pathTooLong(let path):
      return "the agent's socket path \(path) is longer than the \(UnixSocket.maximumPathBytes) "
        + "bytes a Unix socket allows; set AUTHTUI_AGENT_SOCKET to a shorter path"
    case .cannotCreate(let folder, let reason):
      return "cannot create the agent's folder \(folder): \(reason); create it with "
        + "`mkdir -m 700 '\(folder)'` \(elsewhere)"
    case .notAFolder(let folder, let kind, let owner):
      return "the agent's folder \(folder) is \(kind) (owner uid \(owner)), not a folder, so "
        + "no agent can listen there; \(Self.removal(folder, owner: owner)), "
        + "\(elsewhereOrRuntime)"
    case .notAFolderOnTheWay(let path, let kind, let socket):
      return "the agent's socket \(socket) would be inside \(path), which is \(kind), not a "
        + "folder; set XDG_RUNTIME_DIR to your runtime folder (or AUTHTUI_AGENT_SOCKET to a "
        + "path in a folder only you can use)"
    case .folderNotOwned(let folder, let owner, let mode):
      return "the agent's folder \(folder) belongs to another user (uid \(owner), mode "
        + "0\(String(mode, radix: 8)); you are uid \(geteuid())), who could read or replace its "
        + "socket, so no agent can listen there; \(Self.removal(folder, owner: owner)), "
        + "\(elsewhereOrRuntime)"
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

  /// How to remove `path`, which belongs to `owner`: only its owner or root can.
  private static func removal(_ path: String, owner: uid_t) -> String {
    let who = owner == geteuid() ? "" : " as its owner (uid \(owner)) or as root"
    return "remove it\(who) (`rm -r '\(path)'`)"
  }
}
