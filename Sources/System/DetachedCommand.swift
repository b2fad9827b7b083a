import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Starts a shell command in the background and does not wait for it: browsers, `xdg-open`,
/// clipboard tools and the clipboard janitor.
///
/// `posix_spawn` of `/bin/sh -c 'COMMAND … &'`: the shell puts the real program in the
/// background (where POSIX has it ignore the terminal's Ctrl-C) and exits at once, so authtui
/// reaps the shell immediately and never waits on a daemonising launcher, which Foundation's
/// `Process.waitUntilExit` would. Arguments travel as positional parameters (`"$1"`), never
/// pasted into the command text, and its output goes to /dev/null so nothing scribbles on the
/// terminal or the UI. The signal mask is reset: a thread of ours may block signals the
/// program needs.
public enum DetachedCommand {
  /// Runs `script` (shell text using `"$1"`, `"$2"`… for `arguments`) in the background;
  /// false when the shell could not be started. `descriptor`, when given, is the script's
  /// file descriptor 3.
  @discardableResult
  public static func launch(
    _ script: String, arguments: [String] = [], inheriting descriptor: Int32? = nil,
    environment: [String: String]? = nil
  ) -> Bool {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    if let descriptor {
      // The script reads it as file descriptor 3 (`<&3`), e.g. the text for a clipboard tool.
      posix_spawn_file_actions_adddup2(&actions, descriptor, 3)
    }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    resetSignals(&attributes)

    let argv =
      ["/bin/sh", "-c", "( \(script) ) </dev/null >/dev/null 2>&1 &", "authtui"] + arguments
    let cArguments = argv.map { strdup($0) } + [nil]
    let cEnvironment =
      (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") }
      + [nil]
    defer {
      cArguments.forEach { free($0) }
      cEnvironment.forEach { free($0) }
    }
    var pid: pid_t = 0
    guard posix_spawn(&pid, "/bin/sh", &actions, &attributes, cArguments, cEnvironment) == 0 else {
      return false
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return true
  }

  /// Gives a child the signals as a fresh process has them: nothing blocked (a thread of
  /// ours may block them all) and the default action for the signals a shell or a program
  /// expects (TerminationSignals and the agent take SIGINT, SIGTERM and SIGHUP here).
  static func resetSignals(_ attributes: inout posix_spawnattr_t) {
    var empty = sigset_t()
    sigemptyset(&empty)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD, SIGWINCH] {
      sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
  }

  /// True when `name` is an executable on `PATH`.
  public static func isAvailable(
    _ name: String, environment: [String: String] = ProcessInfo.processInfo.environment
  )
    -> Bool
  {
    let path = environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").contains { access("\($0)/\(name)", X_OK) == 0 }
  }
}
