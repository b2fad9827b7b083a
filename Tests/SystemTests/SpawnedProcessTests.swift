import XCTest

@testable import System

#if canImport(Glibc)
  import Glibc
#endif

final class SpawnedProcessTests: XCTestCase {
  /// The read end of a pipe that holds `text` and whose write end is closed.
  private func pipe(holding text: String) -> Int32 {
    var ends: [Int32] = [0, 0]
    XCTAssertEqual(Glibc.pipe(&ends), 0)
    let bytes = Array(text.utf8)
    XCTAssertEqual(bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }, bytes.count)
    close(ends[1])
    return ends[0]
  }

  /// Everything `descriptor` gives until its end, as UTF-8 text.
  private func text(readFrom descriptor: Int32) -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 512)
    while case let count = read(descriptor, &buffer, buffer.count), count > 0 {
      bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  func testADetachedChildHasASessionOfItsOwnAndOnlyTheDescriptorsItIsGiven() throws {
    var ends: [Int32] = [0, 0]
    XCTAssertEqual(Glibc.pipe(&ends), 0)
    defer { close(ends[0]) }
    // A descriptor of ours without close-on-exec: a plain spawn would hand it on.
    let stray = open("/dev/null", O_RDONLY)
    defer { close(stray) }
    XCTAssertGreaterThan(stray, 3)
    let given = pipe(holding: "")
    defer { close(given) }
    // Field 6 of /proc/PID/stat is the session id; the shell lists its own descriptors, with
    // no pipeline (a shell holds a pipeline's pipes while it starts its stages).
    let script = "cut -d ' ' -f 6 /proc/$$/stat; ls /proc/$$/fd"
    let process = try SpawnedProcess.start(
      "/bin/sh", arguments: ["-c", script], standardInput: .null,
      standardOutput: .descriptor(ends[1]), extra: [3: given], detached: true)
    close(ends[1])
    let output = text(readFrom: ends[0])
    XCTAssertEqual(process.wait(), .exited(0))
    let lines = output.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.first, String(process.pid), "the child leads a session of its own")
    XCTAssertNotEqual(lines.first, String(getsid(0)))
    XCTAssertEqual(lines.dropFirst().compactMap { Int($0) }.sorted(), [0, 1, 2, 3])
  }

  func testNoChildIsGivenAVariableAPassphraseComesFrom() throws {
    // A browser, git or a clipboard tool was handed AUTHTUI_PASSPHRASE with the rest of the
    // environment; the browser and the clipboard's selection keeper outlive authtui.
    var environment = ["PATH": "/usr/bin:/bin", "KEPT": "yes"]
    for name in ["AUTHTUI_PASSPHRASE", "AUTHTUI_NEW_PASSPHRASE"] {
      for suffix in ["", "_FILE", "_COMMAND"] { environment[name + suffix] = "secret" + suffix }
    }
    let result = try SpawnedProcess.output(
      of: "/usr/bin/env", environment: environment, standardInput: .null)
    XCTAssertEqual(result.termination, .exited(0))
    let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n")
    XCTAssertEqual(lines.sorted(), ["KEPT=yes", "PATH=/usr/bin:/bin"])
  }

  func testEveryChildHasOnlyTheDescriptorsItIsGivenUnderTheirNumbers() throws {
    // Descriptors of ours without close-on-exec, as URLSession's socket pairs are: a child
    // that is not detached (a browser, a passphrase command, `exec`'s command) got them too.
    var pair: [Int32] = [0, 0]
    XCTAssertEqual(Glibc.pipe(&pair), 0)
    defer { pair.forEach { close($0) } }
    let given = pipe(holding: "")
    defer { close(given) }
    // `; true`: the shell runs `ls` as its child instead of becoming it, so `ls`'s own
    // descriptor of the folder is not listed.
    let listing = "ls /proc/$$/fd; true"
    let (termination, output) = try SpawnedProcess.output(
      of: "/bin/sh", arguments: ["-c", listing], standardInput: .null)
    XCTAssertEqual(termination, .exited(0))
    let numbers = String(decoding: output, as: UTF8.self).split(separator: "\n")
      .compactMap { Int($0) }.sorted()
    XCTAssertEqual(numbers, [0, 1, 2])

    // Given under a number with a gap below it: the gap is closed too.
    var ends: [Int32] = [0, 0]
    XCTAssertEqual(Glibc.pipe(&ends), 0)
    defer { close(ends[0]) }
    let process = try SpawnedProcess.start(
      "/bin/sh", arguments: ["-c", listing], standardInput: .null,
      standardOutput: .descriptor(ends[1]), extra: [5: given, pair[0]: pair[0]])
    close(ends[1])
    let listed = text(readFrom: ends[0])
    XCTAssertEqual(process.wait(), .exited(0))
    let kept = listed.split(separator: "\n").compactMap { Int32($0) }.sorted()
    XCTAssertEqual(kept, [0, 1, 2, 5, pair[0]].sorted())
  }

  func testShellCommandReportsItsExitStatus() throws {
    let process = try SpawnedProcess.start("/bin/sh", arguments: ["-c", "exit 3"])
    XCTAssertEqual(process.wait(), .exited(3))
  }

  func testSuccessfulCommandSucceeds() throws {
    let result = try SpawnedProcess.output(of: "/bin/sh", arguments: ["-c", "true"])
    XCTAssertTrue(result.termination.succeeded)
    XCTAssertEqual(result.output, [])
  }

  func testKilledCommandReportsItsSignal() throws {
    let process = try SpawnedProcess.start("/bin/sh", arguments: ["-c", "kill -9 $$"])
    XCTAssertEqual(process.wait(), .signalled(SIGKILL))
    XCTAssertFalse(SpawnedProcess.Termination.signalled(SIGKILL).succeeded)
  }

  func testOutputIsCapturedWhole() throws {
    let result = try SpawnedProcess.output(
      of: "/bin/sh", arguments: ["-c", "printf 'first\\nsecond'; head -c 20000 /dev/zero"])
    XCTAssertTrue(result.termination.succeeded)
    XCTAssertEqual(Array(result.output.prefix(12)), Array("first\nsecond".utf8))
    XCTAssertEqual(result.output.count, 12 + 20000)
  }

  func testArgumentsTravelAsPositionalParameters() throws {
    let result = try SpawnedProcess.output(
      of: "/bin/sh", arguments: ["-c", "printf '%s|' \"$@\"", "name", "a b", "$(no)", "'"])
    XCTAssertEqual(String(decoding: result.output, as: UTF8.self), "a b|$(no)|'|")
  }

  func testEnvironmentIsExactlyTheOneGiven() throws {
    let result = try SpawnedProcess.output(
      of: "/bin/sh", arguments: ["-c", "printf '%s' \"$ONLY-${HOME:-unset}\""],
      environment: ["ONLY": "this"])
    XCTAssertEqual(String(decoding: result.output, as: UTF8.self), "this-unset")
  }

  func testStandardInputComesFromAPipe() throws {
    let input = pipe(holding: "through the pipe\n")
    defer { close(input) }
    let result = try SpawnedProcess.output(
      of: "/bin/sh", arguments: ["-c", "tr a-z A-Z"], standardInput: .descriptor(input))
    XCTAssertEqual(String(decoding: result.output, as: UTF8.self), "THROUGH THE PIPE\n")
  }

  func testExtraDescriptorIsTheChildsThird() throws {
    let three = pipe(holding: "on three")
    defer { close(three) }
    var out: [Int32] = [0, 0]
    XCTAssertEqual(Glibc.pipe(&out), 0)
    let process = try SpawnedProcess.start(
      "/bin/sh", arguments: ["-c", "cat <&3"], standardInput: .null,
      standardOutput: .descriptor(out[1]), extra: [3: three], closing: [out[0]])
    close(out[1])
    defer { close(out[0]) }
    var buffer = [UInt8](repeating: 0, count: 64)
    var received: [UInt8] = []
    while true {
      let count = read(out[0], &buffer, buffer.count)
      guard count > 0 else { break }
      received += buffer[0..<count]
    }
    XCTAssertEqual(process.wait(), .exited(0))
    XCTAssertEqual(received, Array("on three".utf8))
  }

  func testNullInputReadsAsEmpty() throws {
    let result = try SpawnedProcess.output(
      of: "/bin/sh", arguments: ["-c", "wc -c"], standardInput: .null)
    XCTAssertEqual(
      String(decoding: result.output, as: UTF8.self).trimmingCharacters(
        in: .whitespacesAndNewlines),
      "0")
  }

  func testMissingProgramIsAnErrorNamingIt() {
    XCTAssertThrowsError(try SpawnedProcess.start("/nonexistent/authtui-no-such-program")) {
      guard let error = $0 as? SpawnError else { return XCTFail("not a SpawnError: \($0)") }
      XCTAssertEqual(error.program, "/nonexistent/authtui-no-such-program")
      XCTAssertEqual(error.code, ENOENT)
      XCTAssertEqual(error.reason, "No such file or directory")
    }
  }

  func testChildStartsWithNoSignalBlocked() throws {
    // A test worker thread may block signals; the child must not inherit that mask.
    var all = sigset_t()
    sigfillset(&all)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &all, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    let result = try SpawnedProcess.output(
      of: "/bin/sh", arguments: ["-c", "grep '^SigBlk' /proc/self/status"])
    XCTAssertEqual(
      String(decoding: result.output, as: UTF8.self), "SigBlk:\t0000000000000000\n")
  }

  func testDetachedCommandDoesNotWaitForItsBackgroundProgram() throws {
    // The background program writes a file only after the launch returned; launch returning
    // at all while it still runs (it waits on a FIFO nobody opens yet) is the point.
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("authtui-spawn-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("gate").path
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let mark = folder.appendingPathComponent("mark").path
    guard DetachedCommand.launch("cat \"$1\" > \"$2\"", arguments: [fifo, mark]) else {
      return XCTFail("the shell could not be started")
    }
    // Opening the FIFO for writing blocks until the background cat opened it for reading.
    let writer = open(fifo, O_WRONLY)
    XCTAssertGreaterThanOrEqual(writer, 0)
    let text = Array("done".utf8)
    XCTAssertEqual(text.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }, text.count)
    close(writer)
  }
  func testAChildThatOutlivesItsDeadlineIsKilledAndWhatItWroteIsKept() throws {
    // It writes, then hangs with its output open (a tmux server that stops answering). The
    // deadline leaves a loaded machine ample time for the write; the hang is ten minutes.
    let (termination, output) = try SpawnedProcess.output(
      of: "/bin/sh", arguments: ["-c", "printf partial; exec sleep 600"], standardInput: .null,
      deadline: .seconds(3))
    XCTAssertEqual(termination, .signalled(SIGKILL))
    XCTAssertEqual(String(decoding: output, as: UTF8.self), "partial")
  }

  func testAChildThatClosesItsOutputButDoesNotEndIsKilledAtItsDeadline() throws {
    let (termination, output) = try SpawnedProcess.output(
      of: "/bin/sh", arguments: ["-c", "printf done; exec >&-; exec sleep 600"],
      standardInput: .null, deadline: .seconds(3))
    XCTAssertEqual(termination, .signalled(SIGKILL))
    XCTAssertEqual(String(decoding: output, as: UTF8.self), "done")
  }

  func testAChildThatEndsBeforeItsDeadlineEndsAsItDoes() throws {
    let (termination, output) = try SpawnedProcess.output(
      of: "/bin/sh", arguments: ["-c", "printf answer; exit 3"], standardInput: .null,
      deadline: .seconds(600))
    XCTAssertEqual(termination, .exited(3))
    XCTAssertEqual(String(decoding: output, as: UTF8.self), "answer")
  }
}
