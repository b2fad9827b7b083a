internal import CNcursesW

#if canImport(Glibc)
  import Glibc
#endif

/// Checks, before curses takes the screen, that the terminal can be driven at all.
///
/// `initscr` with an unknown `TERM` prints its own message and calls `exit(1)`, with stdout
/// not a terminal it "succeeds" and then spins, and on a terminal that cannot move its cursor
/// (`TERM=dumb`: Emacs' `M-x shell`, some IDE consoles) it draws every row on the last line;
/// each is refused here with a message that says what to do instead.
public enum TerminfoProbe {
  /// Why the interactive UI cannot start on this terminal.
  public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
    /// Standard input or output is not a terminal (a pipe, a file, a cron job).
    case notATerminal
    /// `TERM` is unset or empty.
    case missingTerm
    /// `TERM` names a terminal with no terminfo entry on this machine.
    case unknownTerm(String)
    /// `TERM` names a terminal that cannot move its cursor to a given place (no `cup`).
    case cannotAddressCursor(String)

    public var description: String {
      switch self {
      case .notATerminal:
        return
          "the interactive UI needs a terminal; for scripts use `authtui list`, "
          + "`authtui token ACCOUNT` or `authtui login PROVIDER`"
      case .missingTerm:
        return
          "TERM is not set; set it to your terminal's type, for example `export TERM=xterm-256color`"
      case .unknownTerm(let term):
        return
          "this machine has no terminfo entry for TERM=\(term); install it (`apt-get install "
          + "ncurses-term`) or use a common type, for example `TERM=xterm-256color authtui`"
      case .cannotAddressCursor(let term):
        return
          "a terminal of type TERM=\(term) cannot move its cursor, which the interactive UI "
          + "needs; run `authtui` in a terminal emulator (in Emacs, `M-x term` rather than "
          + "`M-x shell`), or for scripts use `authtui list`, `authtui token ACCOUNT` or "
          + "`authtui login PROVIDER`"
      }
    }
  }

  /// Returns nil when curses can start on file descriptors 0 and 1 with `term`, else the problem.
  public static func problem(term: String?, inputFD: Int32 = 0, outputFD: Int32 = 1) -> Problem? {
    guard isatty(inputFD) == 1, isatty(outputFD) == 1 else { return .notATerminal }
    guard let term, !term.isEmpty else { return .missingTerm }
    return terminfoProblem(term)
  }

  /// Nil when terminfo describes `term` as a terminal that can move its cursor, else the
  /// problem. Uses `setupterm` with an error out-parameter, which reports instead of exiting.
  ///
  /// Must run on the thread that owns curses (it briefly swaps curses' current terminal).
  public static func terminfoProblem(_ term: String) -> Problem? {
    // setupterm installs the entry as the current terminal: keep the one in use (an open
    // screen's) aside, and free the probe's entry afterwards.
    let current = set_curterm(nil)
    var status: Int32 = 0
    let result = setupterm(term, -1, &status)
    let problem: Problem?
    if result != OK || status != 1 {
      problem = .unknownTerm(term)
    } else if !authtui_terminal_addresses_cursor() {
      problem = .cannotAddressCursor(term)
    } else {
      problem = nil
    }
    if let loaded = set_curterm(current), loaded != current {
      del_curterm(loaded)
    }
    return problem
  }
}
