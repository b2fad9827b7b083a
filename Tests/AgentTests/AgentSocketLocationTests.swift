import Foundation
import Vault
import XCTest

@testable import Agent
@testable import AgentProtocol
@testable import AgentWire

#if canImport(Glibc)
  import Glibc
#endif

final class AgentSocketLocationTests: XCTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    folder = URL(fileURLWithPath: "/tmp").appendingPathComponent(
      "authtui-agent-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    XCTAssertEqual(chmod(folder.path, 0o700), 0)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  func testOverrideWinsAndIsMadeStandard() {
    let location = AgentSocketLocation.resolve(environment: [
      "AUTHTUI_AGENT_SOCKET": "/run/x/../y/agent.sock", "XDG_RUNTIME_DIR": "/run/user/1",
    ])
    XCTAssertEqual(location.path, "/run/y/agent.sock")
    XCTAssertEqual(location.directory, "/run/y")
  }

  func testRuntimeFolderIsUsedWhenAbsolute() {
    XCTAssertEqual(
      AgentSocketLocation.resolve(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]).path,
      "/run/user/1000/authtui/agent.sock")
    XCTAssertEqual(
      AgentSocketLocation.resolve(environment: [
        "AUTHTUI_AGENT_SOCKET": "", "XDG_RUNTIME_DIR": "/r",
      ])
      .path,
      "/r/authtui/agent.sock")
  }

  func testRelativeRuntimeFolderIsIgnored() {
    let expected = "/tmp/authtui-\(geteuid())/agent.sock"
    XCTAssertEqual(
      AgentSocketLocation.resolve(environment: ["XDG_RUNTIME_DIR": "run/user"]).path, expected)
    XCTAssertEqual(AgentSocketLocation.resolve(environment: [:]).path, expected)
  }

  func testPrepareCreatesAPrivateFolderWithItsParents() throws {
    let location = AgentSocketLocation(path: folder.path + "/a/b/agent.sock")
    try location.prepareDirectory()
    for path in [folder.path + "/a", folder.path + "/a/b"] {
      var info = stat()
      XCTAssertEqual(lstat(path, &info), 0)
      XCTAssertEqual(info.st_mode & 0o777, 0o700, path)
    }
    XCTAssertNil(location.directoryProblem())
    XCTAssertFalse(location.exists)
  }

  func testFolderOpenToOthersIsRefused() throws {
    let open = folder.appendingPathComponent("open").path
    XCTAssertEqual(mkdir(open, 0o700), 0)
    XCTAssertEqual(chmod(open, 0o750), 0)
    let location = AgentSocketLocation(path: open + "/agent.sock")
    XCTAssertEqual(location.directoryProblem(), .folderNotPrivate(open, mode: 0o750))
    XCTAssertThrowsError(try location.prepareDirectory()) {
      XCTAssertEqual($0 as? AgentSocketProblem, .folderNotPrivate(open, mode: 0o750))
    }
  }

  func testLinkedFolderIsRefused() throws {
    let real = folder.appendingPathComponent("real").path
    let link = folder.appendingPathComponent("link").path
    XCTAssertEqual(mkdir(real, 0o700), 0)
    XCTAssertEqual(symlink(real, link), 0)
    let location = AgentSocketLocation(path: link + "/agent.sock")
    XCTAssertEqual(
      location.directoryProblem(), .notAFolder(link, kind: "a symbolic link", owner: geteuid()))
  }

  func testOverlongPathIsRefusedBeforeAnythingIsCreated() {
    let long = folder.path + "/" + String(repeating: "d", count: 120) + "/agent.sock"
    XCTAssertThrowsError(try AgentSocketLocation(path: long).prepareDirectory()) {
      XCTAssertEqual($0 as? AgentSocketProblem, .pathTooLong(long))
    }
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: (long as NSString).deletingLastPathComponent))
  }

  func testSomethingThatIsNotASocketIsNotRemoved() throws {
    let path = folder.appendingPathComponent("agent.sock").path
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
    let location = AgentSocketLocation(path: path)
    XCTAssertThrowsError(try location.removeStaleSocket()) {
      XCTAssertEqual($0 as? AgentSocketProblem, .notASocket(path))
    }
    XCTAssertTrue(location.exists)
  }

  func testSocketNobodyListensOnIsReplacedAndRemovedOnlyByItsOwner() throws {
    let location = AgentSocketLocation(path: folder.appendingPathComponent("agent.sock").path)
    let first = try location.listen()
    close(first.fd)  // the agent died: its socket file stays behind
    XCTAssertTrue(location.exists)
    let second = try location.listen()
    defer { close(second.fd) }
    var info = stat()
    XCTAssertEqual(lstat(location.path, &info), 0)
    XCTAssertEqual(info.st_mode & 0o777, 0o600)
    // (The file system may give the new socket the old one's inode number again.)
    let socket = second.identity.socket
    location.remove(
      AgentSocketIdentity(
        socket: .init(device: socket.device, inode: socket.inode &+ 1),
        folder: second.identity.folder))
    XCTAssertTrue(location.exists, "another inode must not remove the live socket")
    location.remove(second.identity)
    XCTAssertFalse(location.exists)
  }

  func testChangeSaysWhenThePathNoLongerNamesTheBoundSocket() throws {
    let inner = folder.appendingPathComponent("inner").path
    let location = AgentSocketLocation(path: inner + "/agent.sock")
    try location.prepareDirectory()
    let bound = try location.listen()
    defer { close(bound.fd) }
    XCTAssertNil(location.change(since: bound.identity))

    // Another file at the path: kept the inode of nothing the agent bound.
    XCTAssertEqual(rename(location.path, inner + "/moved.sock"), 0)
    XCTAssertTrue(FileManager.default.createFile(atPath: location.path, contents: Data()))
    XCTAssertEqual(location.change(since: bound.identity), .socketReplaced(location.path))
    location.remove(bound.identity)
    XCTAssertTrue(location.exists, "a file put in the socket's place is not the agent's to remove")
    XCTAssertEqual(unlink(location.path), 0)
    XCTAssertEqual(location.change(since: bound.identity), .socketRemoved(location.path))

    XCTAssertEqual(rename(inner, inner + "-gone"), 0)
    XCTAssertEqual(location.change(since: bound.identity), .folderRemoved(inner))
    XCTAssertEqual(mkdir(inner, 0o700), 0)
    XCTAssertEqual(location.change(since: bound.identity), .folderReplaced(inner))
  }

  func testRunningAgentIsNotReplaced() throws {
    let location = AgentSocketLocation(path: folder.appendingPathComponent("agent.sock").path)
    let running = try location.listen()
    defer {
      close(running.fd)
      location.remove(running.identity)
    }
    XCTAssertThrowsError(try location.removeStaleSocket()) {
      XCTAssertEqual($0 as? AgentSocketProblem, .agentRunning(location.path, pid: getpid()))
    }
  }

  func testCanonicalVaultPathResolvesLinks() throws {
    let real = folder.appendingPathComponent("real")
    try FileManager.default.createDirectory(at: real, withIntermediateDirectories: false)
    let vault = real.appendingPathComponent("vault.db").path
    XCTAssertTrue(FileManager.default.createFile(atPath: vault, contents: Data()))
    let link = folder.appendingPathComponent("link").path
    XCTAssertEqual(symlink(real.path, link), 0)
    let canonicalFolder = try XCTUnwrap(realpath(folder.path, nil))
    defer { free(canonicalFolder) }
    XCTAssertEqual(
      VaultLocation(path: link + "/../link/vault.db").canonicalPath,
      String(cString: canonicalFolder) + "/real/vault.db")
    XCTAssertEqual(
      VaultLocation(path: folder.path + "/missing/../x.db").canonicalPath, folder.path + "/x.db")
  }
}
