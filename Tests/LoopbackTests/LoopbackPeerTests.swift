import Foundation
import Testing

@testable import Loopback

#if canImport(Glibc)
  import Glibc
#endif

/// The owner of a loopback connection's client socket, from `/proc/net/tcp`: what keeps another
/// user of the machine out of a sign-in's listener.
@Suite struct LoopbackPeerTests {
  static let table = """
      sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
       0: 0100007F:A0B1 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1 1
       1: 0100007F:C350 0100007F:A0B1 01 00000000:00000000 00:00000000 00000000 65534        0 2 1
       2: 0100007F:A0B1 0100007F:C350 01 00000000:00000000 00:00000000 00000000  1000        0 3 1
    """

  @Test func theClientSocketsLineNamesItsOwner() {
    // The client's socket (local 50000, remote the server's 41137), not the accepted one.
    #expect(
      LoopbackPeer.ownerUID(in: Self.table, client: "0100007F:C350", server: "0100007F:A0B1")
        == 65534)
    #expect(
      LoopbackPeer.ownerUID(in: Self.table, client: "0100007F:C351", server: "0100007F:A0B1")
        == nil)
  }

  /// A connection of this process to a listener of its own: its owner is this user.
  @Test func aConnectionOfThisUserIsItsOwn() throws {
    let (listener, port) = try Self.listen()
    defer { close(listener) }
    let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(client) }
    #expect(Self.connect(client, port: port) == 0)
    let accepted = accept(listener, nil, nil)
    defer { close(accepted) }
    #expect(accepted >= 0)
    #expect(LoopbackPeer.ownerUID(of: accepted) == geteuid())
    #expect(LoopbackPeer.isOwnUser(accepted))
  }

  /// As root, a connection made by nobody (through setpriv) is found to be nobody's.
  @Test(.enabled(if: geteuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0))
  func anotherUsersConnectionIsFoundToBeTheirs() throws {
    let (listener, port) = try Self.listen()
    defer { close(listener) }
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    child.arguments = [
      "--reuid=65534", "--regid=65534", "--clear-groups", "--", "/bin/bash", "-c",
      "exec 3<>/dev/tcp/127.0.0.1/\(port); read -t 30 -u 3 line",
    ]
    try child.run()
    defer { child.terminate() }
    let accepted = accept(listener, nil, nil)
    defer { close(accepted) }
    #expect(accepted >= 0)
    #expect(LoopbackPeer.ownerUID(of: accepted) == 65534)
  }

  /// A listening socket on 127.0.0.1, and its port.
  static func listen() throws -> (Int32, UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0, connect(fd, port: 0, bind: true) == 0, Glibc.listen(fd, 4) == 0 else {
      throw POSIXError(.EADDRINUSE)
    }
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return (fd, UInt16(bigEndian: address.sin_port))
  }

  /// Connects `fd` to 127.0.0.1:`port` (or binds it there).
  static func connect(_ fd: Int32, port: UInt16, bind: Bool = false) -> Int32 {
    withLoopbackAddress(port: port) { address, length in
      bind ? Glibc.bind(fd, address, length) : Glibc.connect(fd, address, length)
    }
  }
}
