internal import CNcursesW

#if canImport(Glibc)
  import Glibc
#endif

/// Gives the terminal back on every exit path: `shutdown`, `exit()`, SIGINT/SIGTERM/SIGHUP/
/// SIGQUIT (restore, then die of the same signal) and crashes (SIGSEGV, SIGBUS, SIGILL, SIGABRT,
/// SIGFPE, SIGTRAP: restore, then let the previous handler, such as Swift's backtracer, or the
/// default core dump act).
///
/// The signal handlers are C functions in shim.h: they only write the reset bytes computed here
/// in advance and put back the terminal modes saved before curses started, both
/// async-signal-safe. This file is the only caller of the shim's `authtui_guard_*` functions.
enum TerminalGuard {
  /// Saves the terminal modes of `ttyFD` and arms the exit-time restore; false when another
  /// screen of this process already holds the guard.
  static func arm(ttyFD: Int32) -> Bool {
    authtui_guard_arm(ttyFD) == 0
  }

  /// Sets the bytes written to the terminal on an abnormal exit.
  static func setResetSequence(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { characters in
        authtui_guard_set_reset(characters.baseAddress, characters.count)
      }
    }
  }

  /// Installs the restoring handlers and the SIGWINCH handler that writes to `wakeFD`; for
  /// SIGINT, SIGTERM and SIGHUP only with `termination` (a program that defers them during
  /// its critical sections restores the terminal itself, by ending its loop).
  ///
  /// Installed before `newterm`, so curses does not add its own SIGINT/SIGTERM/SIGWINCH
  /// handlers (it only takes signals whose disposition is still the default). A signal the
  /// parent ignores (nohup) stays ignored.
  static func installSignalHandlers(wakeFD: Int32, termination: Bool) {
    authtui_guard_install_signals(wakeFD, termination ? 1 : 0)
  }

  /// Puts back the signal dispositions found at installation.
  static func uninstallSignalHandlers() {
    authtui_guard_uninstall_signals()
  }

  /// Stops the exit-time restore (after curses gave the terminal back itself).
  static func disarm() {
    authtui_guard_disarm()
  }

  /// Restores the terminal now, as a signal would; used for tests and as a last resort.
  static func restoreNow() {
    authtui_guard_restore()
  }

  /// What `endwin` would send, from the terminal's terminfo entry: leave the alternate
  /// screen, plain attributes, visible cursor, keypad off, and bracketed paste off.
  static func resetSequence(bracketedPaste: Bool) -> [UInt8] {
    var bytes: [UInt8] = []
    for capability in ["sgr0", "cnorm", "rmkx", "rmcup"] {
      guard let value = tigetstr(capability), Int(bitPattern: value) != -1 else { continue }
      bytes += Array(String(cString: value).utf8)
    }
    if bracketedPaste {
      bytes += Array(BracketedPaste.disable.utf8)
    }
    return bytes
  }
}

/// The xterm bracketed-paste mode: the terminal wraps pasted text in `ESC [200~` … `ESC [201~`,
/// so a paste arrives as one `.paste` event instead of a storm of keys.
enum BracketedPaste {
  static let enable = "\u{1B}[?2004h"
  static let disable = "\u{1B}[?2004l"
  static let start = "\u{1B}[200~"
  static let end = "\u{1B}[201~"
  /// Key codes `define_key` gives the two markers (above curses' own KEY_MAX).
  static let startKey: Int32 = 0x7F00
  static let endKey: Int32 = 0x7F01
}
