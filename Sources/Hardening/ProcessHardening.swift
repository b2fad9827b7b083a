internal import CProcessControl

#if canImport(Glibc)
  import Glibc
#endif

/// Keeps this process's memory, which holds tokens, keys and the passphrase, out of core dumps,
/// crash reports and other processes of the same user (OpenSSH's `platform_disable_tracing()`).
///
/// Applied first thing in every authtui run, before any secret is read:
/// - `prctl(PR_SET_DUMPABLE, 0)`: the kernel writes no core for the process whatever
///   `core_pattern` says (a file or a pipe to systemd-coredump), and a process of the same user
///   without `CAP_SYS_PTRACE` can neither attach to it nor open its `/proc/PID/mem`.
/// - `RLIMIT_CORE` 0/0: no core even where the first switch is missing, and none for the
///   programs authtui starts (a browser, a clipboard tool, a passphrase command).
/// - The fatal signals get their default action back. The Swift runtime catches them to run
///   `swift-backtrace`, which reads this process's memory (as root it may, non-dumpable or not),
///   prints every register with the 16 bytes it points at, and, for a signal sent by `kill`,
///   lets the process carry on serving afterwards. The default action ends the process at once
///   with the signal as its status, and the two switches above leave no core behind.
public enum ProcessHardening {
  /// The signals whose default action is to end the process with a core, and that the Swift
  /// runtime's crash handler takes over (SIGQUIT included: Ctrl-\ would print a backtrace).
  public static let fatalSignals: [Int32] = [
    SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT,
  ]

  /// Applies all three; failures are ignored, as there is nothing better to do than go on (a
  /// system without `prctl` still gets the core limit).
  public static func apply() {
    _ = authtui_set_not_dumpable()
    var none = rlimit(rlim_cur: 0, rlim_max: 0)
    _ = setrlimit(resourceCore, &none)
    for number in fatalSignals {
      signal(number, SIG_DFL)
    }
  }

  #if canImport(Glibc)
    private static let resourceCore = __rlimit_resource_t(RLIMIT_CORE.rawValue)
  #else
    private static let resourceCore = RLIMIT_CORE
  #endif
}
