import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Starts helper programs (a browser, `wl-copy`, `xclip`) without ever waiting on them from the
/// caller: `posix_spawn` in a session of their own, standard output and error on `/dev/null`
/// so nothing lands on the curses screen, and a thread of their own that reaps them.
///
/// Foundation's `Process` is not used: its `waitUntilExit` also waits for daemons that inherited
/// its pipes (PLATFORM.md), and launchers such as `xdg-open` leave those behind.
enum DetachedProcess {
  /// glibc's `POSIX_SPAWN_SETSID` (2.26 and later), which Swift does not import because the
  /// header defines it only under `_GNU_SOURCE`.
  private static let spawnNewSession: Int32 = 0x80

  /// Why a program could not be started.
  struct SpawnError: Error, CustomStringConvertible {
    let program: String
    let code: Int32
    var description: String { "\(program): \(String(cString: strerror(code)))" }
  }

  /// Runs `arguments` (the first is looked up on `PATH`) with `input` on its standard input.
  static func start(
    _ arguments: [String], input: [UInt8]? = nil, environment: [String: String]
  ) throws(SpawnError) {
    guard let program = arguments.first else { throw SpawnError(program: "", code: ENOENT) }
    var inputPipe: [Int32] = [-1, -1]
    if input != nil, pipe(&inputPipe) != 0 { throw SpawnError(program: program, code: errno) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if input != nil {
      posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
      posix_spawn_file_actions_addclose(&actions, inputPipe[0])
      posix_spawn_file_actions_addclose(&actions, inputPipe[1])
    } else {
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let (pid, spawned) = spawn(arguments, environment: environment, actions: &actions)
    if input != nil { close(inputPipe[0]) }
    guard spawned == 0 else {
      if input != nil { close(inputPipe[1]) }
      throw SpawnError(program: program, code: spawned)
    }
    let writeEnd = inputPipe[1]
    let bytes = input
    let child = pid
    Thread {
      if let bytes {
        var offset = 0
        while offset < bytes.count {
          let written = bytes.withUnsafeBytes {
            write(writeEnd, $0.baseAddress?.advanced(by: offset), $0.count - offset)
          }
          if written < 0 && errno == EINTR { continue }
          guard written > 0 else { break }
          offset += written
        }
        close(writeEnd)
      }
      var status: Int32 = 0
      while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    }.start()
  }

  /// Runs `arguments` and returns its standard output, or nil when it fails or takes longer
  /// than `timeout`; blocks the calling thread (call it from a thread of its own).
  static func output(
    of arguments: [String], environment: [String: String], timeout: TimeInterval = 2
  ) -> [UInt8]? {
    guard !arguments.isEmpty else { return nil }
    var outputPipe: [Int32] = [-1, -1]
    guard pipe(&outputPipe) == 0 else { return nil }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addclose(&actions, outputPipe[0])
    posix_spawn_file_actions_addclose(&actions, outputPipe[1])
    let (pid, spawned) = spawn(arguments, environment: environment, actions: &actions)
    close(outputPipe[1])
    defer { close(outputPipe[0]) }
    guard spawned == 0 else { return nil }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    let deadline = Date().addingTimeInterval(timeout)
    var entry = pollfd(fd: outputPipe[0], events: Int16(POLLIN), revents: 0)
    while Date() < deadline {
      guard poll(&entry, 1, 50) > 0 else { continue }
      let count = read(outputPipe[0], &buffer, buffer.count)
      if count > 0 {
        output += buffer[0..<count]
      } else if count == 0 || errno != EINTR {
        break
      }
    }
    if Date() >= deadline { kill(pid, SIGKILL) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status == 0 ? output : nil
  }

  /// `posix_spawnp` with `actions`, in a session of its own (no terminal signals), with default
  /// signal handling and an empty mask: the UI owns SIGINT and SIGWINCH, and threads may block
  /// signals a helper must not inherit. Returns the pid and the error code (0 on success).
  private static func spawn(
    _ arguments: [String], environment: [String: String],
    actions: inout posix_spawn_file_actions_t
  ) -> (pid: pid_t, code: Int32) {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(
      &attributes, Int16(spawnNewSession | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let code = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
    return (pid, code)
  }

  /// True when `name` is an executable on `PATH`.
  static func isInstalled(_ name: String, environment: [String: String]) -> Bool {
    executable(name, environment: environment) != nil
  }

  /// The full path of `name` on `PATH`.
  static func executable(_ name: String, environment: [String: String]) -> String? {
    if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
    let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/\(name)"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }
}
