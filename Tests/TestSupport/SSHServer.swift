import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real OpenSSH server (Debian's `/usr/sbin/sshd`) on a loopback port, for tests of
/// `authtui ssh` and of requests forwarded to the agent: started by the test as the current
/// user with its own host key, one fresh user key allowed to log in, no PAM and no password.
///
/// `clientConfig` is an ssh client configuration (`ssh -F PATH`, or `authtui ssh -F PATH`)
/// that reaches it as `host`: the user key, the host key as the only known one, BatchMode.
/// Stop it with `stop()` (a server still running when the value goes away is killed).
public final class SSHServer: Sendable {
  /// The server program.
  public static let program = "/usr/sbin/sshd"
  /// The host name the client configuration knows it by.
  public let host = "authtui-test-host"
  /// The port it listens on, on 127.0.0.1.
  public let port: Int
  /// Its folder: keys, configurations, `authorized_keys`, the pid file.
  public let folder: TemporaryDirectory
  /// The ssh client configuration that reaches it (`-F`).
  public let clientConfig: String
  private let process: RunningChild

  private init(port: Int, folder: TemporaryDirectory, clientConfig: String, process: RunningChild) {
    self.port = port
    self.folder = folder
    self.clientConfig = clientConfig
    self.process = process
  }

  /// Makes the keys and configurations and starts the server, trying other ports while the
  /// one picked is taken; throws when sshd cannot start (its log says why).
  public static func start() async throws -> SSHServer {
    let folder = try TemporaryDirectory()
    chmod(folder.path, 0o700)
    for key in ["host_key", "user_key"] {
      let made = try await ChildProcess.run(
        "/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", key, "-f", folder.file(key)])
      guard made.status == 0 else {
        throw WorkspaceError("ssh-keygen failed for \(key): \(made.stderr)")
      }
    }
    let hostKey = try String(contentsOfFile: folder.file("host_key.pub"), encoding: .utf8)
    let userKey = try String(contentsOfFile: folder.file("user_key.pub"), encoding: .utf8)
    _ = try folder.write(userKey, to: "authorized_keys")
    _ = try folder.write("authtui-test-host " + hostKey, to: "known_hosts")
    if geteuid() == 0 {
      // sshd run by root wants its privilege separation folder, which the package's service
      // makes at boot (systemd-tmpfiles): containers without systemd lack it.
      mkdir("/run/sshd", 0o755)
    }
    var lastLog = ""
    for _ in 0..<20 {
      let port = Int.random(in: 20_000...60_000)
      let serverConfig = try folder.write(
        serverConfiguration(folder, port: port), to: "sshd_config")
      let process = try RunningChild(Self.program, ["-D", "-e", "-f", serverConfig])
      var listening = false
      try await waitUntil("sshd listens or stops") {
        let log = await process.standardError()
        lastLog = log
        if log.contains("Server listening on 127.0.0.1 port \(port)") {
          listening = true
          return true
        }
        return await process.endedStatus() != nil
      }
      if listening {
        let clientConfig = try folder.write(
          clientConfiguration(folder, port: port), to: "ssh_config")
        return SSHServer(port: port, folder: folder, clientConfig: clientConfig, process: process)
      }
      // Stopped: a port taken meanwhile is tried again elsewhere, anything else is reported.
      _ = await process.wait()
      lastLog = await process.standardError()
      guard lastLog.contains("Bind to port") || lastLog.contains("Cannot bind any address") else {
        break
      }
    }
    throw WorkspaceError("sshd did not start: \(lastLog)")
  }

  /// Stops the server (SIGTERM, then waits).
  public func stop() async {
    await process.kill(SIGTERM)
    _ = await process.wait()
  }

  /// What sshd wrote to its log so far (`-e`: standard error).
  public func log() async -> String {
    await process.standardError()
  }

  private static func serverConfiguration(_ folder: TemporaryDirectory, port: Int) -> String {
    """
    Port \(port)
    ListenAddress 127.0.0.1
    HostKey \(folder.file("host_key"))
    PidFile \(folder.file("sshd.pid"))
    AuthorizedKeysFile \(folder.file("authorized_keys"))
    StrictModes no
    UsePAM no
    PasswordAuthentication no
    KbdInteractiveAuthentication no
    PubkeyAuthentication yes
    PermitRootLogin prohibit-password
    AllowStreamLocalForwarding yes
    LogLevel VERBOSE

    """
  }

  private static func clientConfiguration(_ folder: TemporaryDirectory, port: Int) -> String {
    let user = String(cString: getpwuid(geteuid()).pointee.pw_name)
    return """
      Host authtui-test-host
        HostName 127.0.0.1
        Port \(port)
        User \(user)
        IdentityFile \(folder.file("user_key"))
        IdentitiesOnly yes
        HostKeyAlias authtui-test-host
        UserKnownHostsFile \(folder.file("known_hosts"))
        GlobalKnownHostsFile /dev/null
        StrictHostKeyChecking yes
        BatchMode yes
        LogLevel ERROR

      """
  }
}
