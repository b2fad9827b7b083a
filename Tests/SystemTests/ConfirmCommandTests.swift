import Foundation
import XCTest

@testable import System

/// `AUTHTUI_CONFIRM_COMMAND` run as the agent runs it: the question on standard input, exit 0
/// allows, anything else denies, and one that does not end in time is killed.
final class ConfirmCommandTests: XCTestCase {
  private var folder = ""

  override func setUpWithError() throws {
    folder = NSTemporaryDirectory() + "confirm-command-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(atPath: folder)
  }

  private func command(_ line: String) throws -> ConfirmCommand {
    try XCTUnwrap(
      ConfirmCommand(environment: ["AUTHTUI_CONFIRM_COMMAND": line, "PATH": "/usr/bin:/bin"]))
  }

  func testExitZeroAllowsAndTheCommandReadsTheQuestion() async throws {
    let copy = folder + "/question"
    let allowed = try command("cat > '\(copy)'; exit 0")
    let refusal = await allowed.ask("account: sandbox/alice\n", timeout: 60)
    XCTAssertNil(refusal)
    XCTAssertEqual(try String(contentsOfFile: copy, encoding: .utf8), "account: sandbox/alice\n")
  }

  func testAnyOtherStatusDeniesAndSaysSo() async throws {
    let refusal = try await command("exit 3").ask("question\n", timeout: 60)
    XCTAssertEqual(refusal, "AUTHTUI_CONFIRM_COMMAND denied it (it exited with status 3)")
  }

  func testACommandThatNeverAnswersIsKilledWithWhatItStartedAtTheDeadline() async throws {
    let started = folder + "/child"
    // The shell starts a child that would outlive it: the whole group goes.
    let refusal = try await command("sleep 600 & echo $! > '\(started)'; wait").ask(
      "question\n", timeout: 1)
    XCTAssertEqual(refusal, "AUTHTUI_CONFIRM_COMMAND did not answer within 1 s")
    let child = try XCTUnwrap(
      Int32(
        try String(contentsOfFile: started, encoding: .utf8).trimmingCharacters(
          in: .whitespacesAndNewlines)))
    // Killed with SIGKILL: gone, or a zombie until init reaps it.
    let deadline = Date().addingTimeInterval(60)
    while kill(child, 0) == 0, Self.state(of: child) != "Z", Date() < deadline {
      usleep(50_000)
    }
    XCTAssertTrue(kill(child, 0) != 0 || Self.state(of: child) == "Z")
  }

  func testAnUnsetOrBlankVariableIsNoCommand() {
    XCTAssertNil(ConfirmCommand(environment: [:]))
    XCTAssertNil(ConfirmCommand(environment: ["AUTHTUI_CONFIRM_COMMAND": "  "]))
  }

  private static func state(of pid: Int32) -> String? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    return stat[stat.index(close, offsetBy: 2)...].split(separator: " ").first.map(String.init)
  }
}
