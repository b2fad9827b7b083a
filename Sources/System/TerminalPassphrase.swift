import Foundation
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// Asks for a passphrase on the controlling terminal (`/dev/tty`), with echo off.
///
/// `/dev/tty` rather than standard input, so `authtui vault init < file` or a pipe on standard
/// output does not change where the passphrase is typed. The terminal is put in non-canonical mode
/// with echo and signals off, and restored before returning, whatever happens: Ctrl-C is read as a
/// key and cancels, instead of killing the process and leaving the terminal silent, and a
/// SIGTERM or SIGHUP that ends the process restores it first.
public enum TerminalPassphrase {
  /// True when this process has a controlling terminal to ask on: a person may be there.
  public static var isAvailable: Bool {
    let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard tty >= 0 else { return false }
    close(tty)
    return true
  }

  /// Asks with `prompt` (and again with `confirmation`, when given); `variable` names the
  /// variables to set instead when there is no terminal.
  public static func ask(prompt: String, confirmation: String?, variable: String)
    throws(PassphraseError)
    -> Passphrase
  {
    let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard tty >= 0 else { throw .noTerminal(variable: variable) }
    defer { close(tty) }
    for _ in 0..<3 {
      let first = try line(tty, prompt: prompt)
      guard !first.isEmpty else {
        write(tty, "The passphrase cannot be empty.\n")
        continue
      }
      guard let confirmation else { return first }
      let second = try line(tty, prompt: confirmation)
      if first.matches(second) { return first }
      write(tty, "The two passphrases differ; once more.\n")
    }
    throw .mismatch
  }

  /// One line typed with echo off.
  private static func line(_ tty: Int32, prompt: String) throws(PassphraseError) -> Passphrase {
    guard let text = String(bytes: try typedLine(tty, prompt: prompt, echo: false), encoding: .utf8)
    else { throw .notUTF8(.terminal) }
    return Passphrase(text)
  }

  /// The bytes of one line typed after `prompt`, read a byte at a time with the terminal's own
  /// echo and signals off: Ctrl-C and Ctrl-D on an empty line cancel, Backspace and Ctrl-U
  /// edit. With `echo`, what is typed is shown (written back, an erased character rubbed out).
  fileprivate static func typedLine(_ tty: Int32, prompt: String, echo: Bool)
    throws(PassphraseError) -> [UInt8]
  {
    write(tty, prompt)
    var saved = termios()
    let isTerminal = tcgetattr(tty, &saved) == 0
    if isTerminal {
      var quiet = saved
      quiet.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
      withUnsafeMutableBytes(of: &quiet.c_cc) { controls in
        controls[Int(VMIN)] = 1  // return after every byte
        controls[Int(VTIME)] = 0  // and never time out
      }
      tcsetattr(tty, TCSAFLUSH, &quiet)
      // A signal that ends the process here (SIGTERM, SIGHUP: Ctrl-C is read as a key) puts
      // the terminal back first.
      let original = saved
      TerminationSignals.shared.setRestorer {
        var restored = original
        tcsetattr(tty, TCSANOW, &restored)
        write(tty, "\n")
      }
    }
    defer {
      if isTerminal {
        TerminationSignals.shared.setRestorer(nil)
        tcsetattr(tty, TCSAFLUSH, &saved)
      }
      write(tty, "\n")
    }
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      let count = read(tty, &byte, 1)
      if count < 0 && errno == EINTR { continue }
      guard count == 1 else { throw .cancelled }
      switch byte {
      case 0x0A, 0x0D:
        return bytes
      case 0x03:  // Ctrl-C
        throw .cancelled
      case 0x04 where bytes.isEmpty:  // Ctrl-D on an empty line
        throw .cancelled
      case 0x7F, 0x08:  // Backspace: drop the last character (its UTF-8 continuation bytes too)
        if echo, !bytes.isEmpty { write(tty, "\u{8} \u{8}") }
        while let last = bytes.popLast(), last & 0xC0 == 0x80 {}
      case 0x15:  // Ctrl-U: start over
        if echo { write(tty, "\r\u{1B}[K" + prompt) }
        bytes.removeAll()
      default:
        guard byte >= 0x20 || byte == 0x09 else { continue }
        bytes.append(byte)
        if echo { _ = withUnsafePointer(to: byte) { Glibc.write(tty, $0, 1) } }
      }
    }
  }

  private static func write(_ tty: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { Glibc.write(tty, $0.baseAddress, $0.count) }
  }
}

/// Asks a person a question on the controlling terminal, what they type shown (a client id, not
/// a secret), edited as `TerminalPassphrase` edits: `login` asking for a preset's client id.
public enum TerminalQuestion {
  /// The line typed after `prompt`, white space around it dropped; nil when there is no
  /// terminal. Ctrl-C or Ctrl-D on an empty line throw `cancelled`.
  public static func ask(_ prompt: String) throws(PassphraseError) -> String? {
    let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard tty >= 0 else { return nil }
    defer { close(tty) }
    let bytes = try TerminalPassphrase.typedLine(tty, prompt: prompt, echo: true)
    return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
  }
}
