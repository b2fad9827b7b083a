import Spelling

#if canImport(Glibc)
  import Glibc
#endif

/// Where a command writes: standard output for results, standard error for everything else.
///
/// Unbuffered `write(2)` so output interleaves correctly with child processes and survives
/// `exit()`, which does not flush Swift's `print` buffer in every case. Text for people passes
/// through `TerminalText.cleaned`, which keeps line breaks and tabs: names, descriptions and
/// messages from provider files, providers, the agent and the vault are in it, and none may
/// send the terminal a control sequence or reorder a line.
package struct Console: Sendable {
  /// The process's standard output and error.
  package init() {}

  /// Writes `text`, cleaned, and a newline to standard output.
  package func out(_ text: String) {
    write(Self.cleaned(text) + "\n", to: 1)
  }

  /// Writes `text` exactly and a newline to standard output: a secret for a program (a token,
  /// git's answer), which must come out as it is or not at all. The caller has checked it
  /// with `TerminalText.isClean`. (JSON goes through `out`: `OrderedJSON` escapes every
  /// character the cleaning would change, so it comes out exactly too.)
  package func outExactly(_ text: String) {
    write(text + "\n", to: 1)
  }

  /// Writes `text`, cleaned, and a newline to standard error.
  package func err(_ text: String) {
    write(Self.cleaned(text) + "\n", to: 2)
  }

  /// `TerminalText.cleaned(text, keeping: TerminalText.lineBreaksAndTabs)`, which text of
  /// printable ASCII, line breaks and tabs already is: a listing of thousands of accounts is
  /// checked byte by byte instead of scalar by scalar.
  private static func cleaned(_ text: String) -> String {
    let plain = text.utf8.allSatisfy { byte in
      (UInt8(ascii: " ")...UInt8(ascii: "~")).contains(byte) || byte == UInt8(ascii: "\n")
        || byte == UInt8(ascii: "\t")
    }
    return plain ? text : TerminalText.cleaned(text, keeping: TerminalText.lineBreaksAndTabs)
  }

  /// Writes `text` as it is to standard error: lines that carry authtui's own control
  /// sequences (a redrawn countdown, a user code in bold). The caller cleans every part that
  /// came from outside with `TerminalText.cleaned`.
  package func errRaw(_ text: String) {
    write(text, to: 2)
  }

  /// True when standard error is a terminal (live countdowns are drawn only then).
  package var stderrIsTerminal: Bool { isatty(2) == 1 }

  /// The width of the terminal standard error is, in columns; nil when it is none.
  package var stderrColumns: Int? {
    var window = winsize()
    guard ioctl(2, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 else { return nil }
    return Int(window.ws_col)
  }

  private func write(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      bytes = bytes.dropFirst(written)
    }
  }
}
