import Foundation
import Isolation
import Spelling
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// Where a command gets a vault passphrase (DESIGN.md "Command line", the restic/borg convention).
///
/// The first that is set (and not empty) answers: `AUTHTUI_PASSPHRASE` (the passphrase itself),
/// `AUTHTUI_PASSPHRASE_FILE` (the first line of that file), `AUTHTUI_PASSPHRASE_COMMAND` (the first
/// line the command prints, run by `/bin/sh -c`, e.g. `pass show authtui`); otherwise the terminal
/// is asked, with echo off. `vault passwd` reads the replacement the same way from
/// `AUTHTUI_NEW_PASSPHRASE`, `…_FILE` and `…_COMMAND`.
///
/// `read` does its blocking work (the terminal, the command) on a thread of its own, so it is
/// safe to await from any task, including the UI's.
public struct PassphraseSource: Sendable {
  /// The variable whose value is the passphrase; `_FILE` and `_COMMAND` are appended for the others.
  public let variable: String
  /// The environment the variables are read from.
  public let environment: [String: String]
  /// How long the `_COMMAND` may take before it is stopped (its whole process group killed):
  /// long enough for a person to answer its prompt (pinentry's, gpg's), short of for ever.
  /// Tests give a shorter one.
  var commandDeadline: Duration = Self.commandDeadline

  /// The default `commandDeadline`: two minutes.
  public static let commandDeadline: Duration = .seconds(120)
  /// Whether the `_COMMAND` is lent the controlling terminal while it runs (its prompt reads
  /// it, Ctrl-C reaches it); false for the UI, whose own input loop reads the terminal.
  var lendsTerminal = true

  /// This source, its `_COMMAND` not lent the terminal: for the UI, whose input loop reads
  /// the terminal meanwhile (a read from a background process group would stop it).
  public func keepingTheTerminal() -> PassphraseSource {
    var source = self
    source.lendsTerminal = false
    return source
  }

  /// The passphrase that opens the vault: `AUTHTUI_PASSPHRASE*`, else the terminal.
  public static func current(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> PassphraseSource {
    PassphraseSource(variable: "AUTHTUI_PASSPHRASE", environment: environment)
  }

  /// The new passphrase of `vault passwd`: `AUTHTUI_NEW_PASSPHRASE*`, else the terminal.
  public static func replacement(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> PassphraseSource {
    PassphraseSource(variable: "AUTHTUI_NEW_PASSPHRASE", environment: environment)
  }

  /// `environment` without a variable any passphrase comes from (`AUTHTUI_PASSPHRASE`,
  /// `AUTHTUI_NEW_PASSPHRASE` and their `_FILE` and `_COMMAND`): what every child is given
  /// (`SpawnedProcess.start` applies it).
  public static func withoutPassphrases(_ environment: [String: String]) -> [String: String] {
    environment.filter { name, _ in
      !["AUTHTUI_PASSPHRASE", "AUTHTUI_NEW_PASSPHRASE"].contains { name.hasPrefix($0) }
    }
  }

  /// Which source will answer. The interactive UI skips its unlock screen unless `.terminal`.
  public var origin: PassphraseOrigin {
    if value(variable) != nil { return .variable(variable) }
    if let path = value(variable + "_FILE") {
      return .file(variable: variable + "_FILE", path: path)
    }
    if let command = value(variable + "_COMMAND") {
      return .command(variable: variable + "_COMMAND", command: command)
    }
    return .terminal
  }

  /// The passphrase. On the terminal it is asked with `prompt`, and when `confirmation` is given,
  /// asked again with it (up to three attempts until both agree); a variable is taken as it is.
  public func read(prompt: String, confirmation: String? = nil) async throws(PassphraseError)
    -> Passphrase
  {
    try await onOwnThread { () throws(PassphraseError) in
      try readBlocking(prompt: prompt, confirmation: confirmation)
    }
  }

  /// A warning when the passphrase comes from a file that other users may read (its mode
  /// gives the group or others read access, as `ssh` warns of a private key): the passphrase
  /// is as safe as that file. Nil for any other source, or a file only its owner can read.
  public var exposure: String? {
    exposureProblem.map { "warning: " + $0 }
  }

  /// `exposure` without its "warning: ", for a screen that shows it as a warning (the UI's
  /// status line, where standard error would damage the screen).
  public var exposureProblem: String? {
    guard case .file(let name, let path) = origin else { return nil }
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
      status.st_mode & (S_IRGRP | S_IROTH) != 0
    else { return nil }
    let mode = String(status.st_mode & 0o777, radix: 8)
    return "\(path) (named by \(name)) is readable by other users (mode 0\(mode)), and so "
      + "is the vault's passphrase in it; run `chmod 600 '\(path)'`"
  }

  private func value(_ name: String) -> String? {
    environment[name].flatMap { $0.isEmpty ? nil : $0 }
  }

  private func readBlocking(prompt: String, confirmation: String?) throws(PassphraseError)
    -> Passphrase
  {
    let origin = self.origin
    let text: String
    switch origin {
    case .variable(let name):
      text = value(name) ?? ""
    case .file(_, let path):
      text = try Self.firstLine(
        of: try Self.contents(of: path, origin: origin, waiting: commandDeadline), from: origin)
    case .command(_, let command):
      text = try Self.firstLine(
        of: try Self.output(
          of: command, environment: environment, origin: origin, deadline: commandDeadline,
          lendingTerminal: lendsTerminal),
        from: origin)
    case .terminal:
      return try TerminalPassphrase.ask(
        prompt: prompt, confirmation: confirmation, variable: variable)
    }
    guard !text.isEmpty else { throw .empty(origin) }
    return Passphrase(text)
  }

  /// The most of a passphrase file that is read: its first line is far shorter.
  static let fileReadLimit = 64 * 1024

  /// The start of the file at `path` (up to its first line break, at most `fileReadLimit`
  /// bytes): a regular file, or a pipe such as bash's `<(pass show authtui)`. A folder or a
  /// device is refused by name; a named pipe nothing writes to reads as empty rather than
  /// waiting for ever.
  /// The first line's worth of the file at `path` (at most `fileReadLimit` bytes). A named
  /// pipe no program has opened yet is waited for, up to `waiting`: a reader that came first
  /// read its end at once, and "is empty" sent the user looking for the wrong fault.
  private static func contents(
    of path: String, origin: PassphraseOrigin, waiting: Duration
  ) throws(PassphraseError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
    guard fd >= 0 else {
      throw .unreadableFile(origin, reason: String(cString: strerror(errno)))
    }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
      throw .unreadableFile(origin, reason: String(cString: strerror(errno)))
    }
    switch status.st_mode & S_IFMT {
    case S_IFREG, S_IFIFO:
      break
    case S_IFDIR:
      throw .unreadableFile(origin, reason: "it is a folder, not a file")
    default:
      throw .unreadableFile(origin, reason: "it is a device or socket, not a file")
    }
    // A named pipe no program has opened for writing yet shows nothing to `poll` (where a
    // read finds its end at once): wait for something to read, or a writer that left.
    if status.st_mode & S_IFMT == S_IFIFO, !SpawnedProcess.readable(fd, before: .now + waiting) {
      throw .unreadableFile(
        origin,
        reason: "it is a named pipe that no program wrote to within "
          + "\(DurationSpelling.words(Int(waiting.components.seconds))) (start the program "
          + "that writes it first)")
    }
    // A pipe is read waiting for its writer (the reading end was opened without waiting).
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while bytes.count < fileReadLimit, !bytes.contains(UInt8(ascii: "\n")) {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else {
        throw .unreadableFile(origin, reason: String(cString: strerror(errno)))
      }
      if count == 0 { break }
      bytes += chunk[0..<count]
    }
    return bytes
  }

  private static func firstLine(of bytes: [UInt8], from origin: PassphraseOrigin)
    throws(PassphraseError) -> String
  {
    var line = bytes.prefix { $0 != UInt8(ascii: "\n") }
    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
    guard let text = String(bytes: line, encoding: .utf8) else { throw .notUTF8(origin) }
    return text
  }

  /// Runs `command` with `/bin/sh -c` and returns its standard output. Its standard input and
  /// error stay the terminal's, so `gpg` or `pass` can ask for their own passphrase: it runs
  /// in a process group of its own, lent the terminal while it runs when `lendingTerminal`
  /// (Ctrl-C reaches it, and is taken as cancelling), and killed whole when `deadline` passes.
  private static func output(
    of command: String, environment: [String: String], origin: PassphraseOrigin,
    deadline: Duration, lendingTerminal: Bool
  ) throws(PassphraseError) -> [UInt8] {
    let result: (termination: SpawnedProcess.Termination, output: [UInt8])
    let end = ContinuousClock.now + deadline
    do {
      result = try SpawnedProcess.output(
        of: "/bin/sh", arguments: ["-c", command], environment: environment,
        deadline: deadline, ownProcessGroup: true, lendingTerminal: lendingTerminal)
    } catch {
      throw .commandFailed(origin, detail: error.reason)
    }
    switch result.termination {
    case .exited(0):
      return result.output
    case .signalled(SIGKILL) where ContinuousClock.now >= end:
      // Killed by the deadline (only after it can that be).
      throw .commandTimedOut(origin, seconds: Int(deadline.components.seconds))
    case .signalled(SIGINT):
      // Ctrl-C at its prompt: as at authtui's own.
      throw .cancelled
    default:
      throw .commandFailed(origin, detail: result.termination.description)
    }
  }
}

/// Where a passphrase came from, for messages that say what to fix.
public enum PassphraseOrigin: Sendable, Equatable, CustomStringConvertible {
  case variable(String)
  case file(variable: String, path: String)
  case command(variable: String, command: String)
  case terminal

  /// "the passphrase from AUTHTUI_PASSPHRASE_FILE (~/.secret)", or "the passphrase typed".
  public var description: String {
    switch self {
    case .variable(let name): return "the passphrase from \(name)"
    case .file(let name, let path): return "the passphrase from \(name) (\(path))"
    case .command(let name, _): return "the passphrase printed by \(name)"
    case .terminal: return "the passphrase typed"
    }
  }

  /// The variable that supplies the passphrase (`AUTHTUI_PASSPHRASE`, `…_FILE` or
  /// `…_COMMAND`); nil when it is typed.
  public var variable: String? {
    switch self {
    case .variable(let name), .file(let name, _), .command(let name, _): return name
    case .terminal: return nil
    }
  }

  /// What to do when this passphrase is wrong.
  public var remedy: String {
    switch self {
    case .variable(let name):
      return "correct \(name), or unset it to be asked on the terminal"
    case .file(let name, _):
      return "correct the first line of that file, or unset \(name) to be asked on the terminal"
    case .command(let name, _):
      return "make that command print the right passphrase, or unset \(name)"
    case .terminal:
      // The vault may have been created by the UI's first run, not `vault init`.
      return "try again with the passphrase chosen when the vault was created, or the last one"
        + " set since (`authtui vault passwd`, or P in authtui)"
    }
  }
}

/// Why no passphrase could be had.
public enum PassphraseError: Error, Equatable, Sendable {
  /// No variable is set and there is no terminal to ask.
  case noTerminal(variable: String)
  case unreadableFile(PassphraseOrigin, reason: String)
  case commandFailed(PassphraseOrigin, detail: String)
  /// The command gave no passphrase within its deadline (`PassphraseSource.commandDeadline`,
  /// in whole seconds) and was stopped.
  case commandTimedOut(PassphraseOrigin, seconds: Int)
  case empty(PassphraseOrigin)
  case notUTF8(PassphraseOrigin)
  /// The two entries on the terminal differed three times.
  case mismatch
  /// Ctrl-C or Ctrl-D at the prompt.
  case cancelled

  /// The one-line message: the problem and the fix.
  public var message: String {
    switch self {
    case .noTerminal(let variable):
      return "no passphrase: there is no terminal to ask on; set \(variable),"
        + " \(variable)_FILE or \(variable)_COMMAND"
    case .unreadableFile(let origin, let reason):
      guard case .file(let name, let path) = origin else { return "cannot read the passphrase" }
      return "cannot read \(path) (named by \(name)): \(reason); fix the path or unset \(name)"
    case .commandFailed(let origin, let detail):
      guard case .command(let name, _) = origin else { return "the passphrase command failed" }
      return "the command in \(name) failed (\(detail)); fix it or unset \(name)"
    case .commandTimedOut(let origin, let seconds):
      guard case .command(let name, _) = origin else { return "the passphrase command hung" }
      return "the command in \(name) gave no passphrase within "
        + "\(DurationSpelling.words(seconds)) and was stopped; make "
        + "it print the passphrase and end (answer any prompt it shows sooner), or unset \(name)"
    case .empty(let origin):
      return "\(origin) is empty; \(origin.remedy)"
    case .notUTF8(let origin):
      return "\(origin) is not UTF-8 text; \(origin.remedy)"
    case .mismatch:
      return "the passphrases typed did not match; run the command again"
    case .cancelled:
      return "cancelled at the passphrase prompt"
    }
  }
}
