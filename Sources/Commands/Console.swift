import AgentProtocol
import Spelling
import Synchronization

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
///
/// A write standard output refuses is remembered for the whole process, and `exitStatus`
/// turns it into the command's failure: a command whose result was not delivered (a token
/// written to a full disk) must not exit 0.
package struct Console: Sendable {
  /// The `errno` of the first write standard output refused, 0 while none has: one for the
  /// process, as standard output is, whichever `Console` value wrote.
  private static let outputError = Atomic<Int32>(0)

  /// The process's standard output and error.
  package init() {}

  /// Writes `text`, cleaned, and a newline to standard output.
  package func out(_ text: String) {
    writeOut(Self.cleaned(text) + "\n")
  }

  /// Writes `text` exactly and a newline to standard output: a secret for a program (a token,
  /// git's answer), which must come out as it is or not at all. The caller has checked it
  /// with `TerminalText.isClean`. (JSON goes through `out`: `OrderedJSON` escapes every
  /// character the cleaning would change, so it comes out exactly too.)
  package func outExactly(_ text: String) {
    writeOut(text + "\n")
  }

  /// The status the process ends with after a command that ended with `status`: `status`,
  /// unless standard output refused a write, which is then said on standard error, and a
  /// command that had succeeded fails with `CommandFailure.unwritableOutput` (1). A command
  /// that had failed keeps its own status, which says more.
  package func exitStatus(_ status: Int32) -> Int32 {
    let error = Self.outputError.load(ordering: .relaxed)
    guard error != 0 else { return status }
    let failure = CommandFailure.unwritableOutput(errorNumber: error)
    err(failure.line)
    return status == 0 ? failure.exitStatus : status
  }

  /// Writes `text` to standard output unless a write there has failed already (nothing after
  /// a lost line can be read as meant), and remembers the first failure. EPIPE is not one: a
  /// reader that stopped reading ends this process by SIGPIPE, as it did before; only where
  /// SIGPIPE is ignored does EPIPE come back, and the reader chose not to read.
  private func writeOut(_ text: String) {
    guard Self.outputError.load(ordering: .relaxed) == 0 else { return }
    let error = write(text, to: 1)
    if error != 0 && error != EPIPE {
      _ = Self.outputError.compareExchange(
        expected: 0, desired: error, ordering: .relaxed)
    }
  }

  /// Writes `text`, cleaned, and a newline to standard error.
  package func err(_ text: String) {
    _ = write(Self.cleaned(text) + "\n", to: 2)
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
    _ = write(text, to: 2)
  }

  /// True when standard error is a terminal (live countdowns are drawn only then).
  package var stderrIsTerminal: Bool { isatty(2) == 1 }

  /// The width of the terminal standard error is, in columns; nil when it is none.
  package var stderrColumns: Int? {
    var window = winsize()
    guard ioctl(2, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 else { return nil }
    return Int(window.ws_col)
  }

  /// Writes all of `text` to `descriptor`; 0, or the `errno` of the write that failed.
  private func write(_ text: String, to descriptor: Int32) -> Int32 {
    DescriptorWrite.all(text, to: descriptor)
  }
}
