import Foundation
import Terminal
import TerminalCurses
import Theme

#if canImport(Glibc)
  import Glibc
#endif

// A small program that draws a known screen with the real curses back end, for the tmux
// tests: wide characters, the last key pressed, a message from a background thread, pastes.
// Keys: q quits, c copies to the clipboard (OSC 52), x crashes with SIGSEGV, A aborts.
// Options: --no-color, --default-sigint, --block-sigwinch (every thread blocks SIGWINCH, as
// libdispatch workers do, and the loop wakes every 250 ms).
// The loop runs synchronously on the main thread, as CursesScreen requires.

let noColor = CommandLine.arguments.contains("--no-color")
// A wrapping shell that ignores SIGINT (to report how the fixture ended) would pass the
// ignored disposition on, and the screen leaves ignored signals alone.
if CommandLine.arguments.contains("--default-sigint") {
  signal(SIGINT, SIG_DFL)
}
let blockResizeSignal = CommandLine.arguments.contains("--block-sigwinch")
if blockResizeSignal {
  var blocked = sigset_t()
  sigemptyset(&blocked)
  sigaddset(&blocked, SIGWINCH)
  pthread_sigmask(SIG_BLOCK, &blocked, nil)
}
let waitForKeys: Duration = blockResizeSignal ? .milliseconds(250) : .seconds(60)
let configuration = CursesScreen.Configuration.standard(noColorFlag: noColor)
let screen: CursesScreen
do {
  screen = try CursesScreen(configuration: configuration)
} catch {
  FileHandle.standardError.write(Data("fixture: \(error)\n".utf8))
  exit(1)
}
let theme =
  (try? ThemeCatalog().theme(requested: nil, colorsOff: configuration.colors == .monochrome))
  ?? Theme(name: "plain", styles: [:])
guard let mailbox = try? Mailbox<String>(waking: screen.waker) else { exit(1) }

// Background work: its message can only appear through the waker, because the loop below
// waits a full minute for keys.
Thread {
  Thread.sleep(forTimeInterval: 0.2)
  mailbox.post("hello from a worker thread")
}.start()

var lastKey = "none"
var message = "none"
var pasted = "none"

func frame(_ size: Size, lastKey: String, message: String, pasted: String) -> ScreenBuffer {
  var buffer = ScreenBuffer(size: size)
  buffer.fill(Rect(row: 0, column: 0, rows: 1, columns: size.columns), role: .title)
  buffer.write("terminal fixture", at: .origin, role: .title)
  buffer.write("size \(size.columns)x\(size.rows)", at: Point(row: 1, column: 0), role: .default)
  buffer.write("日本語|", at: Point(row: 2, column: 0), role: .list)
  buffer.write("🔑 key|", at: Point(row: 3, column: 0), role: .badgeValid)
  buffer.write("key: \(lastKey)", at: Point(row: 4, column: 0), role: .list)
  buffer.write("worker: \(message)", at: Point(row: 5, column: 0), role: .list)
  buffer.write("pasted: \(pasted)", at: Point(row: 6, column: 0), role: .list)
  buffer.write("ready", at: Point(row: 7, column: 0), role: .statusSuccess)
  let bottom = Point(row: size.rows - 1, column: 0)
  buffer.fill(Rect(origin: bottom, size: Size(rows: 1, columns: size.columns)), role: .status)
  buffer.write("q quit  c copy  x crash", at: bottom, role: .statusHint)
  return buffer
}

while true {
  screen.render(
    frame(screen.size, lastKey: lastKey, message: message, pasted: pasted),
    styles: theme.style(for:))
  let event = screen.readEvent(timeout: waitForKeys)
  for received in mailbox.drain() { message = received }
  guard let event else { continue }
  switch event {
  case .character("q"):
    screen.shutdown()
    exit(0)
  case .character("c"):
    screen.copyToClipboard("fixture clipboard text")
  case .character("x"):
    // A real invalid memory access, not a Swift trap.
    UnsafeMutablePointer<Int>(bitPattern: 8)?.pointee = 1
  case .character("A"):
    abort()
  case .paste(let text):
    pasted = text
  default:
    break
  }
  lastKey = event.displayName
}
