import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What a crash of an authtui process leaves behind: no core, no backtrace of its memory, and no
/// process serving on. The agent is the process to crash: it holds the passphrase (in its
/// environment), the vault's keys and the tokens for as long as it runs.
@Suite struct ProcessHardeningTests {
  /// Where a process without `CAP_SYS_PTRACE` runs: as root, `setpriv` drops the capability
  /// (without it, root may read any process's memory and nothing can be observed); as another
  /// user, nothing is needed.
  static let withoutPtraceCapability: [String]? =
    geteuid() != 0
    ? []
    : access("/usr/bin/setpriv", X_OK) == 0
      ? ["/usr/bin/setpriv", "--bounding-set=-sys_ptrace", "--"] : nil

  /// Checks, on the running agent: its core limit is 0/0 (`/proc/PID/limits`); it is not
  /// dumpable, seen as a process of the same user without `CAP_SYS_PTRACE` being refused
  /// `/proc/PID/mem` ("Permission denied"; a dumpable process's file opens and its first read
  /// fails with "Input/output error"; where Yama forbids attaching to non-descendants both read
  /// as refused). Then SIGSEGV under the highest core limit the shell may set: the agent must
  /// end by that signal at once (the Swift runtime's crash handler would print a backtrace with
  /// memory contents and, for a `kill`, let it carry on), print no secret, stop answering, and
  /// leave no core in its working folder. That last check needs a `core_pattern` naming a file
  /// in the working folder (as here: `core`); with a pipe to a collector (systemd-coredump,
  /// apport) or an absolute path it is skipped, and non-dumpability is what keeps the kernel
  /// from dumping at all.
  @Test func anAgentKilledBySIGSEGVEndsAtOnceWithNoCoreAndNoSecretShown() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let token = try #require(try await cli.storedToken("sandbox", "alice"))
    let cores = cli.folder.file("cores")
    #expect(mkdir(cores, 0o700) == 0)
    let shell = [
      "/bin/sh", "-c", #"ulimit -c "$(ulimit -H -c)" && cd "$0" && exec "$@""#, cores,
    ]
    // The runtime's backtracer is on by default on Linux but was off under `swift test`: force
    // it on, as users have it.
    let agent = try await AgentProcess.start(
      cli, [], ["SWIFT_BACKTRACE": "enable=yes"],
      launcher: (Self.withoutPtraceCapability ?? []) + shell)
    #expect(agent.firstLine?.hasPrefix("authtui agent (pid \(agent.child.pid)) listening") == true)
    let pid = agent.child.pid

    let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
    let coreLimit = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }
    #expect(coreLimit?.split(separator: " ").dropFirst(4).prefix(2) == ["0", "0"], "\(limits)")
    if let reader = Self.withoutPtraceCapability {
      let command = reader + ["/bin/cat", "/proc/\(pid)/mem"]
      let read = try await ChildProcess.run(command[0], Array(command.dropFirst()))
      #expect(read.stderr.contains("Permission denied"), "\(read.stderr)")
    }

    let stopped = await agent.stop(SIGSEGV)
    #expect(stopped.status == 128 + SIGSEGV, "\(stopped.output)")
    for secret in [token, SandboxWorkspace.passphrase] {
      #expect(!stopped.output.contains(secret))
    }
    #expect(!stopped.output.contains("Registers"), "\(stopped.output)")
    let vault = try cli.canonicalVaultPath()
    let answer = await AgentWire.exchange(
      cli.workspace.agentSocketPath, Array(#"{"op":"ping","vault":"\#(vault)"}"#.utf8))
    #expect(answer == nil)

    let pattern = try String(contentsOfFile: "/proc/sys/kernel/core_pattern", encoding: .utf8)
    if !pattern.hasPrefix("|") && !pattern.contains("/") {
      #expect(try FileManager.default.contentsOfDirectory(atPath: cores) == [])
    }
    await cli.stop()
  }
}
