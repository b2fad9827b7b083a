#if canImport(Glibc)
  import Glibc
#endif

/// The controlling terminal lent to a child's process group while it runs, as a shell lends
/// it to a foreground job: the child's prompts may read it (a background group reading it
/// would be stopped by SIGTTIN), and Ctrl-C reaches the child. Lent only when this process's
/// group has it in the foreground, and taken back when the child has ended.
struct TerminalForeground {
  /// `/dev/tty`, open while the terminal is lent.
  private let terminal: Int32

  /// Lends the controlling terminal to the process group `group` (a child started in a group
  /// of its own); nil, lending nothing, when there is no controlling terminal or this process
  /// is not in its foreground.
  static func handOver(to group: pid_t) -> TerminalForeground? {
    let terminal = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard terminal >= 0 else { return nil }
    guard tcgetpgrp(terminal) == getpgrp(), tcsetpgrp(terminal, group) == 0 else {
      close(terminal)
      return nil
    }
    // A child that read the terminal before it was its own was stopped (SIGTTIN): it goes on.
    _ = killpg(group, SIGCONT)
    return TerminalForeground(terminal: terminal)
  }

  /// Takes the terminal back for this process's group. This process is in the background
  /// until then, and `tcsetpgrp` there sends SIGTTOU (which would stop it) unless the
  /// calling thread blocks it.
  func takeBack() {
    var blocked = sigset_t()
    sigemptyset(&blocked)
    sigaddset(&blocked, SIGTTOU)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &blocked, &previous)
    _ = tcsetpgrp(terminal, getpgrp())
    pthread_sigmask(SIG_SETMASK, &previous, nil)
    close(terminal)
    // Another process of this group (`less` in `authtui token … | less`) that read the
    // terminal meanwhile was stopped by SIGTTIN: it goes on, as the shell would not know to
    // make it.
    _ = killpg(getpgrp(), SIGCONT)
  }
}
