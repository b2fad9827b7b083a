internal import CNcursesW
import Terminal

#if canImport(Glibc)
  import Glibc
#endif

extension CursesScreen {
  /// What one non-blocking `wget_wch` produced.
  enum KeyRead {
    /// Nothing was waiting.
    case nothing
    /// Input was consumed but means nothing here (an unmapped key, a stray control byte).
    case ignored
    /// A key.
    case event(KeyEvent)
  }

  /// Input modes: unbuffered keys without echo, keypad decoding, a short Esc delay, no
  /// blocking reads (the loop waits in `poll`), flow control off so Ctrl-S and Ctrl-Q are keys.
  /// ISIG stays on: Ctrl-C interrupts and Ctrl-Z suspends, as in any terminal program.
  func configureInput() {
    cbreak()
    noecho()
    nonl()
    intrflush(window, false)
    keypad(window, true)
    wtimeout(window, 0)
    set_escdelay(Int32(Self.milliseconds(configuration.escapeDelay)))
    curs_set(0)
    var modes = termios()
    if tcgetattr(configuration.inputFD, &modes) == 0 {
      modes.c_iflag &= ~tcflag_t(IXON)
      tcsetattr(configuration.inputFD, TCSANOW, &modes)
      // Curses restores these modes after Ctrl-Z / fg.
      def_prog_mode()
    }
    if configuration.bracketedPaste {
      define_key(BracketedPaste.start, BracketedPaste.startKey)
      define_key(BracketedPaste.end, BracketedPaste.endKey)
      writeToTerminal(BracketedPaste.enable)
    }
  }

  public func readEvent(timeout: Duration) -> KeyEvent? {
    guard isOpen else { return nil }
    let deadline = ContinuousClock.now + timeout
    var inputUsable = true
    while true {
      switch readKey() {
      case .event(let event): return event
      case .ignored: continue
      case .nothing: break
      }
      let remaining = Self.milliseconds(deadline - ContinuousClock.now)
      var descriptors = [pollfd(fd: wakePipe.readFD, events: Int16(POLLIN), revents: 0)]
      if inputUsable {
        descriptors.append(pollfd(fd: configuration.inputFD, events: Int16(POLLIN), revents: 0))
      }
      let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(clamping: remaining))
      if ready < 0 {
        // A signal (curses' own SIGWINCH handler when ours is not installed): look again.
        if errno == EINTR { continue }
        return nil
      }
      if descriptors[0].revents != 0 {
        if wakePipe.drain() {
          applyResize()
          return .resize
        }
        return nil
      }
      if ready == 0 {
        // Curses may have noted a resize from its own handler while we slept; and on a thread
        // whose signal mask blocks SIGWINCH no handler runs at all, so ask the kernel.
        if case .event(let event) = readKey() { return event }
        if let kernelSize = terminalSize(), kernelSize != size {
          applyResize()
          return .resize
        }
        return nil
      }
      // Readable but nothing decodable: a hung-up terminal ends the screen's life (even when
      // no SIGHUP came: a parent that ignores it, a wrapper that does not pass it on); end of
      // file on another input stops polling it for this wait instead of spinning on it.
      if descriptors.count > 1, descriptors[1].revents != 0 {
        let read = readKey()
        if case .event(let event) = read { return event }
        if case .nothing = read {
          if descriptors[1].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return .hangup }
          inputUsable = false
        }
      }
    }
  }

  /// The terminal's new size from the kernel, given to curses; the next frame repaints.
  func applyResize() {
    if let size = terminalSize() {
      resize_term(Int32(size.rows), Int32(size.columns))
    }
    needsFullRepaint = true
  }

  /// The terminal's size as the kernel knows it; nil when the output is not a terminal.
  func terminalSize() -> Size? {
    var window = winsize()
    guard ioctl(configuration.outputFD, UInt(TIOCGWINSZ), &window) == 0, window.ws_row > 0,
      window.ws_col > 0
    else { return nil }
    return Size(rows: Int(window.ws_row), columns: Int(window.ws_col))
  }

  /// One non-blocking read from curses, decoded.
  func readKey() -> KeyRead {
    var value: wint_t = 0
    let status = wget_wch(window, &value)
    if status == ERR { return .nothing }
    if status == KEY_CODE_YES {
      return decode(keyCode: Int32(bitPattern: value))
    }
    return decode(character: UInt32(value))
  }

  private func decode(character: UInt32) -> KeyRead {
    switch character {
    case 9: return .event(.tab)
    case 10, 13: return .event(.enter)
    case 27: return .event(.escape)
    case 8, 127: return .event(.backspace)
    case 1...26:
      guard let letter = Unicode.Scalar(UInt32(UInt8(ascii: "a")) + character - 1) else {
        return .ignored
      }
      return .event(.control(Character(letter)))
    case 0..<32: return .ignored
    default:
      guard let scalar = Unicode.Scalar(character) else { return .ignored }
      return .event(.character(Character(scalar)))
    }
  }

  private func decode(keyCode: Int32) -> KeyRead {
    switch keyCode {
    case KEY_UP: return .event(.up)
    case KEY_DOWN: return .event(.down)
    case KEY_LEFT: return .event(.left)
    case KEY_RIGHT: return .event(.right)
    case KEY_HOME: return .event(.home)
    case KEY_END: return .event(.end)
    case KEY_PPAGE: return .event(.pageUp)
    case KEY_NPAGE: return .event(.pageDown)
    case KEY_DC: return .event(.delete)
    case KEY_IC: return .event(.insert)
    case KEY_BTAB: return .event(.backtab)
    case KEY_ENTER: return .event(.enter)
    case KEY_BACKSPACE: return .event(.backspace)
    case KEY_RESIZE:
      needsFullRepaint = true
      return .event(.resize)
    case BracketedPaste.startKey:
      return .event(.paste(readPaste()))
    case authtui_key_f(1)...authtui_key_f(24):
      return .event(.function(Int(keyCode - authtui_key_f(0))))
    default:
      return .ignored
    }
  }

  /// Collects a bracketed paste up to its end marker (or a pause of 100 ms, if the marker
  /// never comes). Line ends become "\n"; at most 64 KiB are kept.
  private func readPaste() -> String {
    wtimeout(window, 100)
    defer { wtimeout(window, 0) }
    var text = String.UnicodeScalarView()
    var afterCarriageReturn = false
    while true {
      var value: wint_t = 0
      let status = wget_wch(window, &value)
      if status == ERR { break }
      if status == KEY_CODE_YES {
        if Int32(bitPattern: value) == BracketedPaste.endKey { break }
        continue
      }
      guard text.count < 65536, let scalar = Unicode.Scalar(UInt32(value)) else { continue }
      defer { afterCarriageReturn = scalar == "\r" }
      if scalar == "\n" && afterCarriageReturn { continue }
      text.append(scalar == "\r" ? "\n" : scalar)
    }
    return String(text)
  }

  /// A duration in whole milliseconds, rounded up, at least 0.
  static func milliseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0 else { return 0 }
    let millis = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int(clamping: millis)
  }
}
