import Foundation
import XCTest

@testable import System

#if canImport(Glibc)
  import Glibc
#endif

final class ForegroundCommandTests: XCTestCase {
  private var folder = ""

  override func setUpWithError() throws {
    folder = NSTemporaryDirectory() + "foreground-\(getpid())-\(UUID().uuidString)"
    try FileManager.default.createDirectory(
      atPath: folder + "/a", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: folder + "/b", withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(atPath: folder)
  }

  private func file(_ path: String, mode: mode_t) throws {
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("#!/bin/sh\n".utf8)))
    XCTAssertEqual(chmod(path, mode), 0)
  }

  func testTheFirstExecutableFileOnPathIsFoundAsAShellFindsIt() throws {
    let path = "\(folder)/a:\(folder)/b"
    // Not executable in a, executable in b: b's is taken.
    try file(folder + "/a/tool", mode: 0o644)
    try file(folder + "/b/tool", mode: 0o755)
    XCTAssertEqual(
      ForegroundCommand.locate("tool", environment: ["PATH": path]), .found(folder + "/b/tool"))
    // A folder of that name is no program either.
    try FileManager.default.createDirectory(
      atPath: folder + "/a/folder", withIntermediateDirectories: true)
    XCTAssertEqual(
      ForegroundCommand.locate("folder", environment: ["PATH": path]),
      .notExecutable(folder + "/a/folder"))
    XCTAssertEqual(
      ForegroundCommand.locate("only-readable", environment: ["PATH": path]), .notFound)
    try file(folder + "/a/only-readable", mode: 0o644)
    XCTAssertEqual(
      ForegroundCommand.locate("only-readable", environment: ["PATH": path]),
      .notExecutable(folder + "/a/only-readable"))
    XCTAssertEqual(ForegroundCommand.locate("", environment: ["PATH": path]), .notFound)
  }

  func testANameWithASlashIsThePathItself() throws {
    try file(folder + "/b/tool", mode: 0o755)
    XCTAssertEqual(
      ForegroundCommand.locate(folder + "/b/tool", environment: ["PATH": "/nowhere"]),
      .found(folder + "/b/tool"))
    XCTAssertEqual(
      ForegroundCommand.locate(folder + "/b/missing", environment: [:]), .notFound)
    XCTAssertEqual(
      ForegroundCommand.locate(folder + "/b", environment: [:]), .notExecutable(folder + "/b"))
  }

  func testRunGivesTheChildsEndingAndItsArgumentZero() async throws {
    let exited = try await ForegroundCommand.run(
      "/bin/sh", name: "sh", arguments: ["-c", #"[ "$0" = sh ] && exit 4"#], environment: [:])
    XCTAssertEqual(exited, .exited(4))
    let killed = try await ForegroundCommand.run(
      "/bin/sh", name: "sh", arguments: ["-c", "kill -KILL $$"], environment: [:])
    XCTAssertEqual(killed, .signalled(SIGKILL))
  }
}
