import Foundation
import TestSupport
import XCTest

@testable import Commands

/// How `authtui ssh` reads its words and what it hands to ssh.
final class SSHRemoteCommandTests: XCTestCase {
  private let parser = ArgumentParser(catalog: .standard)
  private let random = String(repeating: "ab", count: 16)

  private func command(_ words: String...) throws -> SSHCommand {
    try SSHCommand(try parser.parse(["ssh"] + words))
  }

  private func forwarding(_ words: String...) throws -> SSHForwarding {
    let command = try SSHCommand(try parser.parse(["ssh"] + words))
    return try SSHForwarding(words: command.sshWords, command: command.command, name: random)
  }

  private func refusal(_ words: String...) -> String? {
    do {
      let command = try SSHCommand(try parser.parse(["ssh"] + words))
      _ = try SSHForwarding(words: command.sshWords, command: command.command, name: random)
      return nil
    } catch let failure as CommandFailure {
      XCTAssertEqual(failure.exitStatus, 2)
      return failure.message
    } catch {
      return "\(error)"
    }
  }

  func testSSHOptionsGoToSSHAsTheyAreAndCommandFollowsTheDoubleDash() throws {
    let ssh = try command(
      "-p", "2222", "-vt", "-oBatchMode=yes", "--vault", "me@host", "--", "ls", "-l")
    XCTAssertEqual(ssh.sshWords, ["-p", "2222", "-vt", "-oBatchMode=yes", "--vault", "me@host"])
    XCTAssertEqual(ssh.command, ["ls", "-l"])
    XCTAssertNil(ssh.global.vault)
    let read = try forwarding("-p", "2222", "-vt", "-i", "key", "-L8080:localhost:80", "me@host")
    XCTAssertEqual(read.options, ["-p", "2222", "-vt", "-i", "key", "-L8080:localhost:80"])
    XCTAssertEqual(read.destination, "me@host")
    XCTAssertEqual(read.command, [])
    XCTAssertTrue(read.choosesTerminal)
    // authtui's own options before the command word still count.
    XCTAssertEqual(
      try SSHCommand(try parser.parse(["--vault", "/v.db", "ssh", "host"])).global.vault, "/v.db")
    // `--help` right after the command word is authtui's.
    XCTAssertTrue(try parser.parse(["ssh", "--help"]).flags.contains("help"))
  }

  func testMistakesAreUsageErrorsThatSayWhatToWrite() {
    let usage = " (usage: authtui ssh [SSH OPTION]... DESTINATION [-- COMMAND [ARGS...]])"
    XCTAssertEqual(refusal("-p", "22"), "'ssh' needs DESTINATION, the host to connect to" + usage)
    XCTAssertEqual(
      refusal("host", "uptime"),
      "COMMAND goes after `--`, as in `authtui ssh host -- uptime`; ssh options go before "
        + "DESTINATION" + usage)
    XCTAssertEqual(refusal("host", "-p"), refusal("host", "-p"))
    XCTAssertEqual(refusal("-p"), "ssh's -p needs a value, and DESTINATION comes after it" + usage)
    XCTAssertEqual(
      refusal("-N", "host"),
      "ssh's -N runs no remote command, so the agent's socket could not be set up or removed; "
        + "leave it out (authtui ssh runs COMMAND, or a login shell)" + usage)
    XCTAssertEqual(
      refusal("-vW", "h:22", "host"),
      "ssh's -W forwards standard input and output instead, so the agent's socket could not "
        + "be set up or removed; leave it out (authtui ssh runs COMMAND, or a login shell)" + usage)
    do {
      _ = try parser.parse(["ssh"])
      XCTFail("ssh without DESTINATION parsed")
    } catch {
      XCTAssertEqual(error.message, "'ssh' needs DESTINATION")
    }
  }

  func testTheSocketIsForwardedFirstAndALoginShellGetsATerminal() throws {
    let shell = try forwarding("-p", "22", "host")
    let bound = "/tmp/authtui-fwd-\(random).sock"
    XCTAssertEqual(
      shell.arguments(localSocket: "/run/user/1000/authtui/agent.sock"),
      [
        "-o", "ExitOnForwardFailure=yes", "-R", "\(bound):/run/user/1000/authtui/agent.sock",
        "-t", "-p", "22", "host", shell.remoteCommand,
      ])
    XCTAssertEqual(
      try forwarding("-T", "host").arguments(localSocket: "/s").prefix(5),
      ["-o", "ExitOnForwardFailure=yes", "-R", "\(bound):/s", "-T"])
    XCTAssertEqual(
      try forwarding("host", "--", "true").arguments(localSocket: "/s").dropFirst(4).first,
      "host")
  }

  func testTheRemoteCommandQuotesEachWordForTheRemoteShell() throws {
    let remote = try forwarding("host", "--", "printf", "%s\\n", "it's one", "$HOME").remoteCommand
    XCTAssertTrue(remote.hasPrefix("/bin/sh -c '"))
    XCTAssertTrue(
      remote.hasSuffix(#"' authtui-ssh 'printf' '%s\n' 'it'\''s one' '$HOME'"#), remote)
    // The script itself holds no quote that would end it early, nor a backslash.
    let script = remote.dropFirst("/bin/sh -c '".count).prefix { $0 != "'" }
    XCTAssertFalse(script.contains("\\"))
    XCTAssertTrue(script.contains("mkdir -m 700 $d && mv $s $d/agent.sock"))
    XCTAssertTrue(script.contains("AUTHTUI_AGENT_SOCKET=$d/agent.sock"))
    XCTAssertTrue(script.contains(#"trap "rm -rf $d $s" EXIT"#))
  }

  func testTheRemoteScriptRunsTheWordsAsTheyWereGivenAndCleansUp() async throws {
    // The script run here by a real sh, as the remote login shell runs it, with a stand-in
    // for the socket sshd would have bound.
    let fresh = SSHForwarding.randomName((0..<16).map { _ in UInt8.random(in: 0...255) })
    let forwarding = try SSHForwarding(
      words: ["host"],
      command: [
        "sh", "-c",
        #"printf '%s|' "$@" "$AUTHTUI_AGENT_SOCKET" "$AUTHTUI_AGENT_FORWARDED"; exit 7"#, "sh",
        "it's", "a b",
      ],
      name: fresh)
    XCTAssertTrue(FileManager.default.createFile(atPath: forwarding.boundPath, contents: nil))
    let result = try await ChildProcess.run("/bin/sh", ["-c", forwarding.remoteCommand])
    XCTAssertEqual(result.status, 7)
    XCTAssertEqual(result.stdout, "it's|a b|\(forwarding.remoteSocket)|1|")
    XCTAssertFalse(FileManager.default.fileExists(atPath: forwarding.remoteFolder))
    XCTAssertFalse(FileManager.default.fileExists(atPath: forwarding.boundPath))
  }
}

/// `DURATION` (`agent start --lifetime`).
final class DurationValueTests: XCTestCase {
  func testADurationIsAPositiveWholeNumberWithAUnitOrSeconds() {
    let read: [(String, Duration?)] = [
      ("90s", .seconds(90)), ("15m", .seconds(900)), ("8h", .seconds(28_800)),
      ("2d", .seconds(172_800)), ("45", .seconds(45)), ("365d", .seconds(31_536_000)),
      ("0", nil), ("0s", nil), ("-5m", nil), ("1.5h", nil), ("h", nil), ("", nil), ("8 h", nil),
      ("366d", nil), ("3w", nil), ("٣s", nil), ("99999999999s", nil),
    ]
    let context = ValueContext(
      name: "--lifetime", example: nil, command: "agent start",
      usage: "agent start --lifetime DURATION")
    for (text, expected) in read {
      XCTAssertEqual(try? ValueType<Duration>.duration.read(text, context), expected, text)
    }
  }

  func testAnAgentLifetimeThatIsNoDurationIsAUsageErrorWithExamples() throws {
    let parser = ArgumentParser(catalog: .standard)
    XCTAssertEqual(
      try AgentStartCommand(try parser.parse(["agent", "start", "--lifetime", "15m"])).lifetime,
      .seconds(900))
    XCTAssertNil(try AgentStartCommand(try parser.parse(["agent", "start"])).lifetime)
    // --idle-timeout reads the same forms, into seconds (0 and absent: never).
    XCTAssertEqual(
      try AgentStartCommand(try parser.parse(["agent", "start", "--idle-timeout", "15m"]))
        .idleTimeout, 900)
    XCTAssertEqual(
      try AgentCommand(try parser.parse(["agent", "--idle-timeout", "600"])).idleTimeout, 600)
    XCTAssertEqual(try AgentStartCommand(try parser.parse(["agent", "start"])).idleTimeout, 0)
    XCTAssertThrowsError(
      try AgentCommand(try parser.parse(["agent", "--lifetime", "soon"]))
    ) {
      XCTAssertEqual(
        ($0 as? CommandFailure)?.message,
        "--lifetime takes a duration such as 90s, 15m, 8h or 2d (a bare number is seconds), "
          + "from 1s to 365d, not \"soon\"")
    }
  }
}
