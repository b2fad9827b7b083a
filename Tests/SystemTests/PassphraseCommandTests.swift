import Foundation
import Testing
import Vault

@testable import System

/// `AUTHTUI_PASSPHRASE_COMMAND` has a deadline (two minutes; a test gives a shorter one): a
/// command that hangs is stopped with everything it started, and the message names the
/// variable and the fix. Ctrl-C at its prompt ends it by SIGINT, which is a cancel.
@Suite struct PassphraseCommandTests {
  static let variable = "AUTHTUI_PASSPHRASE_COMMAND"

  /// The passphrase source for `command`, with `deadline`.
  static func source(_ command: String, deadline: Duration) -> PassphraseSource {
    PassphraseSource(
      variable: "AUTHTUI_PASSPHRASE",
      environment: [variable: command, "PATH": "/usr/bin:/bin"], commandDeadline: deadline)
  }

  @Test func aCommandThatHangsIsStoppedWithItsChildrenAndNamedWithTheFix() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("authtui-passphrase-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let pidFile = folder.appendingPathComponent("sleep.pid").path
    // The shell starts a child that would outlive it, then waits for it: it never ends.
    let command = "sleep 600 & echo $! > '\(pidFile)'; wait"
    await #expect(
      throws: PassphraseError.commandTimedOut(
        .command(variable: Self.variable, command: command), seconds: 1)
    ) {
      _ = try await Self.source(command, deadline: .seconds(1)).read(prompt: "unused")
    }
    #expect(
      PassphraseError.commandTimedOut(
        .command(variable: Self.variable, command: command), seconds: 120
      )
      .message
        == "the command in AUTHTUI_PASSPHRASE_COMMAND gave no passphrase within 2m and was "
        + "stopped; make it print the passphrase and end (answer any prompt it shows sooner), "
        + "or unset AUTHTUI_PASSPHRASE_COMMAND")
    #expect(PassphraseSource.commandDeadline == .seconds(120))
    // The shell's child goes with it (its process group was killed; SIGKILL takes effect
    // as the child is next scheduled): gone, or a zombie its new parent has not reaped yet.
    let written = try? String(contentsOfFile: pidFile, encoding: .utf8)
    if let pid = written.flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
      // Polled, not timed: the bound only matters when the child was not killed.
      var ended = false
      for _ in 0..<1200 where !ended {
        let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let state = stat.flatMap { $0.split(separator: ")").last?.split(separator: " ").first }
        ended = state == nil || state == "Z"
        if !ended { try await Task.sleep(for: .milliseconds(50)) }
      }
      #expect(ended, "the command's child \(pid) still runs")
    }
  }

  @Test func aCommandEndedByCtrlCIsACancelAndOneThatAnswersInTimeIsRead() async throws {
    await #expect(throws: PassphraseError.cancelled) {
      _ = try await Self.source("kill -INT $$", deadline: .seconds(60)).read(prompt: "unused")
    }
    let read = try await Self.source("echo 'correct horse'", deadline: .seconds(60))
      .read(prompt: "unused")
    #expect(read.matches(Passphrase("correct horse")))
  }
}
