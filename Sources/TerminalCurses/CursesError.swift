#if canImport(Glibc)
  import Glibc
#endif

/// Why the curses screen could not start; the message names the fix.
public enum CursesError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The terminal cannot be driven (not a terminal, no `TERM`, unknown `TERM`, no cursor
  /// addressing).
  case unusableTerminal(TerminfoProbe.Problem)
  /// Another `CursesScreen` is open in this process.
  case alreadyOpen
  /// curses refused to start on this terminal type.
  case cannotStart(term: String)
  /// A system call failed (`pipe`, `dup`, `fdopen`) with this errno.
  case systemCall(String, Int32)

  public var description: String {
    switch self {
    case .unusableTerminal(let problem):
      return problem.description
    case .alreadyOpen:
      return "the terminal UI is already open in this process; shut the first screen down first"
    case .cannotStart(let term):
      return
        "curses could not start on TERM=\(term); try a common type, for example "
        + "`TERM=xterm-256color authtui`"
    case .systemCall(let name, let code):
      return
        "\(name) failed: \(String(cString: strerror(code))); close other programs or raise the "
        + "open-file limit (`ulimit -n`)"
    }
  }
}
