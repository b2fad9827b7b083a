import Locations

#if canImport(Glibc)
  import Glibc
#endif

/// Where the agent's socket is, and whether its folder keeps it to this user.
///
/// `AUTHTUI_AGENT_SOCKET` when set, else `$XDG_RUNTIME_DIR/authtui/agent.sock`, else
/// `/tmp/authtui-UID/agent.sock`. The socket itself is 0600, but what keeps other users out is
/// the folder: it must be a real folder (not a link), owned by this user, and closed to group
/// and others (0700). The agent creates it so; `authtui token` does not talk to a socket in a
/// folder that fails the check, and also checks that the agent runs as this user.
package struct AgentSocketLocation: Sendable, Equatable {
  /// The socket's absolute path.
  package let path: String

  /// The folder holding the socket.
  var directory: String { PathText.folder(of: path) }

  /// The log of an agent started in the background (`agent start`), beside its socket:
  /// `agent.sock` logs to `agent.log`, any other name to the name plus `.log`.
  package var logPath: String {
    path.hasSuffix(".sock") ? String(path.dropLast(5)) + ".log" : path + ".log"
  }

  /// The location the environment variables `variable` reads name.
  package static func resolve(variable: (String) -> String?) -> AgentSocketLocation {
    if let override = variable("AUTHTUI_AGENT_SOCKET"), !override.isEmpty {
      return AgentSocketLocation(path: PathText.standardized(override))
    }
    // The XDG spec says a relative XDG_RUNTIME_DIR is invalid and must be ignored.
    if let runtime = variable("XDG_RUNTIME_DIR"), PathText.isAbsolute(runtime) {
      return AgentSocketLocation(path: runtime + "/authtui/agent.sock")
    }
    return AgentSocketLocation(path: "/tmp/authtui-\(geteuid())/agent.sock")
  }

  /// Creates the folder (0700, with any missing parents) when it is missing, then checks it.
  package func prepareDirectory() throws(AgentSocketProblem) {
    guard path.utf8.count <= UnixSocket.maximumPathBytes else { throw .pathTooLong(path) }
    for prefix in PathText.chain(to: directory) {
      // The mode is given to mkdir itself: the folder never exists with looser permissions.
      if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
        // A file where a folder on the way should be (XDG_RUNTIME_DIR naming a file): that
        // is what to say, not a `mkdir` that cannot work.
        if errno == ENOTDIR, let problem = fileOnTheWay() { throw problem }
        throw .cannotCreate(prefix, reason: String(cString: strerror(errno)))
      }
    }
    if let problem = directoryProblem() { throw problem }
  }

  /// Why the folder cannot hold the socket safely, or nil when only this user can use it.
  package func directoryProblem() -> AgentSocketProblem? {
    var info = stat()
    guard lstat(directory, &info) == 0 else {
      return .cannotCreate(directory, reason: String(cString: strerror(errno)))
    }
    let type = info.st_mode & S_IFMT
    guard type == S_IFDIR else {
      let kind =
        [S_IFLNK: "a symbolic link", S_IFREG: "a file", S_IFSOCK: "a socket", S_IFIFO: "a FIFO"][
          type] ?? "a device"
      return .notAFolder(directory, kind: kind, owner: info.st_uid)
    }
    let mode = info.st_mode & 0o777
    guard info.st_uid == geteuid() else {
      return .folderNotOwned(directory, owner: info.st_uid, mode: mode)
    }
    guard mode & 0o077 == 0 else { return .folderNotPrivate(directory, mode: mode) }
    return nil
  }

  /// Why something at the folder's path cannot hold the socket (`directoryProblem`); nil when
  /// nothing is there (no agent ran there yet: `agent start` creates it) or all is well.
  /// What `agent status`, `agent stop` and `status` report instead of "no agent runs", which
  /// would send the user to an `agent start` that refuses the same folder.
  package func existingDirectoryProblem() -> AgentSocketProblem? {
    var info = stat()
    if lstat(directory, &info) != 0 && (errno == ENOENT || errno == ENOTDIR) {
      return errno == ENOTDIR ? fileOnTheWay() : nil
    }
    return directoryProblem()
  }

  /// The first folder on the way to the socket's that is something else (a file); nil when
  /// there is none.
  private func fileOnTheWay() -> AgentSocketProblem? {
    for prefix in PathText.chain(to: directory) {
      var info = stat()
      guard stat(prefix, &info) == 0 else { return nil }
      let type = info.st_mode & S_IFMT
      guard type == S_IFDIR else {
        let kind = [S_IFREG: "a file", S_IFSOCK: "a socket", S_IFIFO: "a FIFO"][type] ?? "a device"
        return .notAFolderOnTheWay(prefix, kind: kind, socket: path)
      }
    }
    return nil
  }

  /// True when something is at the socket path (a socket or not).
  package var exists: Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  /// Removes a socket left by an agent that died, and refuses when an agent answers there or
  /// the path holds something that is not a socket.
  package func removeStaleSocket() throws(AgentSocketProblem) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path) }
    switch UnixSocket.connect(to: path, timeout: 2) {
    case .connected(let fd):
      let pid = UnixSocket.peer(of: fd)?.pid
      close(fd)
      throw .agentRunning(path, pid: pid)
    case .nobodyListening:
      if unlink(path) != 0 && errno != ENOENT {
        throw .socket("unlink", errno)
      }
    case .absent:
      return
    case .failed(let code):
      throw .socket("connect", code)
    }
  }

  /// Binds and listens on the socket (0600), replacing a stale one; returns the listening
  /// descriptor (non-blocking, close-on-exec) and the identity of the socket file and its
  /// folder, which `remove` checks so that the agent never deletes a socket that is not its
  /// own, and `change(since:)` compares to see whether the path still names it.
  package func listen() throws(AgentSocketProblem) -> (fd: Int32, identity: AgentSocketIdentity) {
    var attempt = 0
    while true {
      try removeStaleSocket()
      let fd = UnixSocket.stream()
      guard fd >= 0 else { throw .socket("socket", errno) }
      let bound = UnixSocket.bind(fd, to: path)
      if bound == 0 { return try finishListening(fd) }
      let code = errno
      close(fd)
      if bound == nil { throw .pathTooLong(path) }
      // Another agent bound the path after the check: the next check names it, or clears it
      // when it died at once.
      attempt += 1
      guard code == EADDRINUSE, attempt < 3 else { throw .socket("bind", code) }
    }
  }

  private func finishListening(_ fd: Int32) throws(AgentSocketProblem) -> (
    fd: Int32, identity: AgentSocketIdentity
  ) {
    // The folder is 0700, so the moment between bind and chmod exposes nothing.
    guard chmod(path, 0o600) == 0, let socket = AgentSocketIdentity.FileID(at: path),
      let folder = AgentSocketIdentity.FileID(at: directory), UnixSocket.listen(fd) == 0
    else {
      let code = errno
      close(fd)
      unlink(path)
      throw .socket("listen", code)
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    return (fd, AgentSocketIdentity(socket: socket, folder: folder))
  }

  /// Deletes the socket file if it is still the one `identity` names.
  package func remove(_ identity: AgentSocketIdentity) {
    if AgentSocketIdentity.FileID(at: path) == identity.socket {
      unlink(path)
    }
  }

  /// How the path stopped naming the socket `identity` names (its folder or the socket
  /// removed, or replaced by another file), or nil while it still does. Two `lstat` calls.
  package func change(since identity: AgentSocketIdentity) -> AgentSocketIdentity.Change? {
    guard let folder = AgentSocketIdentity.FileID(at: directory) else {
      return .folderRemoved(directory)
    }
    guard folder == identity.folder else { return .folderReplaced(directory) }
    guard let socket = AgentSocketIdentity.FileID(at: path) else { return .socketRemoved(path) }
    guard socket == identity.socket else { return .socketReplaced(path) }
    return nil
  }
}
