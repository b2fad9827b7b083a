internal import CNcursesW
import Foundation
import Terminal

#if canImport(Glibc)
  import Glibc
#endif

/// The ncursesw back end of `Screen`: the real terminal.
///
/// Requirements on the program that opens it (the composition root):
/// - Call `render`, `readEvent` and `shutdown` from one thread, the process's real main
///   thread: run the UI loop synchronously from top-level code, before any top-level `await`.
///   (Main-actor code after an `await` runs on a libdispatch worker whose signal mask blocks
///   SIGWINCH; the loop still notices resizes there through its poll timeout, only later.)
/// - Background work talks to the loop through `waker` or a `Mailbox(waking: screen.waker)`.
/// - Only one screen is open at a time (`CursesError.alreadyOpen`).
/// - With `handlesSignals` (the default) the screen owns SIGINT, SIGTERM, SIGHUP, SIGQUIT,
///   SIGWINCH and the crash signals until `shutdown`: it restores the terminal and then lets
///   the signal end the process as before. Ctrl-C therefore ends the program at once; Ctrl-Z
///   suspends it through curses' own handler and redraws on `fg`.
///
/// Rendering redraws only the cells whose grapheme or resolved style changed since the last
/// frame, and a resize or `invalidate()` repaints everything.
public final class CursesScreen: Screen {
  let configuration: Configuration
  let wakePipe: WakePipe
  let window: UnsafeMutablePointer<WINDOW>
  private let session: OpaquePointer
  private let outputFile: UnsafeMutablePointer<FILE>
  private let inputFile: UnsafeMutablePointer<FILE>
  var palette: CursesPalette
  var isOpen = true
  var needsFullRepaint = true
  var drawn: [DrawnCell?] = []
  var drawnSize = Size.zero
  var cursorVisible = false

  /// Cells sent to curses by the latest `render` (0 when nothing changed): for tests and
  /// benchmarks of the diffing renderer.
  public internal(set) var lastRenderChangedCells = 0

  /// Takes over the terminal: curses starts on it in the alternate screen, keys unbuffered.
  public init(configuration: Configuration = Configuration()) throws(CursesError) {
    let term = configuration.term ?? ProcessInfo.processInfo.environment["TERM"]
    if configuration.requiresTerminal {
      if let problem = TerminfoProbe.problem(
        term: term, inputFD: configuration.inputFD, outputFD: configuration.outputFD)
      {
        throw .unusableTerminal(problem)
      }
    }
    guard let term, !term.isEmpty else { throw .unusableTerminal(.missingTerm) }
    if let problem = TerminfoProbe.terminfoProblem(term) { throw .unusableTerminal(problem) }
    Self.selectUTF8Locale()

    let wakePipe = try WakePipe()
    guard TerminalGuard.arm(ttyFD: configuration.outputFD) else { throw .alreadyOpen }
    if configuration.handlesSignals {
      TerminalGuard.installSignalHandlers(
        wakeFD: wakePipe.writeFD, termination: configuration.handlesTerminationSignals)
    }
    func release() {
      if configuration.handlesSignals { TerminalGuard.uninstallSignalHandlers() }
      TerminalGuard.disarm()
    }
    // curses closes its FILEs' descriptors at the end; give it duplicates.
    guard let outputFile = fdopen(dup(configuration.outputFD), "w") else {
      release()
      throw .systemCall("fdopen", errno)
    }
    guard let inputFile = fdopen(dup(configuration.inputFD), "r") else {
      fclose(outputFile)
      release()
      throw .systemCall("fdopen", errno)
    }
    guard let session = newterm(term, outputFile, inputFile) else {
      fclose(outputFile)
      fclose(inputFile)
      release()
      throw .cannotStart(term: term)
    }
    guard let window = authtui_stdscr() else {
      endwin()
      delscreen(session)
      fclose(outputFile)
      fclose(inputFile)
      release()
      throw .cannotStart(term: term)
    }
    self.configuration = configuration
    self.wakePipe = wakePipe
    self.session = session
    self.window = window
    self.outputFile = outputFile
    self.inputFile = inputFile
    palette = CursesPalette(mode: configuration.colors)
    configureInput()
    TerminalGuard.setResetSequence(
      TerminalGuard.resetSequence(bracketedPaste: configuration.bracketedPaste))
  }

  deinit {
    shutdown()
  }

  /// How many colours the screen uses: 0 when monochrome, else the terminal's palette size.
  public var colorCount: Int { palette.paletteSize }

  public var size: Size {
    guard isOpen else { return drawnSize }
    var rows: Int32 = 0
    var columns: Int32 = 0
    authtui_getmaxyx(window, &rows, &columns)
    return Size(rows: Int(rows), columns: Int(columns))
  }

  public var waker: ScreenWaker {
    let pipe = wakePipe
    return ScreenWaker { pipe.wake() }
  }

  public func invalidate() {
    needsFullRepaint = true
  }

  public func copyToClipboard(_ text: String) {
    guard isOpen else { return }
    writeToTerminal(ClipboardSequence.osc52(copying: text))
  }

  public func shutdown() {
    guard isOpen else { return }
    isOpen = false
    if configuration.bracketedPaste { writeToTerminal(BracketedPaste.disable) }
    curs_set(1)
    endwin()
    delscreen(session)
    fclose(outputFile)
    fclose(inputFile)
    TerminalGuard.disarm()
    if configuration.handlesSignals { TerminalGuard.uninstallSignalHandlers() }
  }

  /// Writes control bytes straight to the terminal, between curses frames (curses has flushed
  /// its own output at the end of `render`).
  func writeToTerminal(_ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        write(configuration.outputFD, $0.baseAddress?.advanced(by: offset), $0.count - offset)
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return }
      offset += written
    }
  }

  /// curses needs a UTF-8 LC_CTYPE to draw wide characters; the user's locale when it is one,
  /// else C.UTF-8 (which glibc always has). Only LC_CTYPE changes: number formatting elsewhere
  /// in the process stays as it was.
  static func selectUTF8Locale() {
    setlocale(LC_CTYPE, "")
    let codeset = nl_langinfo(nl_item(CODESET)).map { String(cString: $0) } ?? ""
    if codeset.uppercased().replacingOccurrences(of: "-", with: "") != "UTF8" {
      setlocale(LC_CTYPE, "C.UTF-8")
    }
  }
}
