import AgentWire
import Foundation
import TestSupport
import Testing

@testable import Loopback

#if canImport(Glibc)
  import Glibc
#endif

/// The poll server's own rules, on a Unix socket, where its thread can be held still.
@Suite struct SocketRequestServerTests {
  /// A request that arrived in time while the server's thread was held elsewhere (a loaded
  /// machine, a laptop asleep) is answered, not taken for a client too slow to send one. The
  /// thread is held in `admit` of a second connection, which waits on a pipe the test opens
  /// once the first connection's request has been sent and its deadline has passed.
  @Test func aRequestThatArrivedWhileTheThreadWasHeldIsAnswered() async throws {
    let folder = try TemporaryDirectory()
    let path = folder.file("server.sock")
    let listener = UnixSocket.stream()
    #expect(UnixSocket.bind(listener, to: path) == 0)
    #expect(UnixSocket.listen(listener) == 0)
    _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
    // `admit` says it was called on `calls`, then waits for a byte on `gate`.
    var calls: [Int32] = [-1, -1]
    var gate: [Int32] = [-1, -1]
    #expect(pipe(&calls) == 0 && pipe(&gate) == 0)
    let (callsRead, callsWrite, gateRead, gateWrite) = (calls[0], calls[1], gate[0], gate[1])
    defer { for fd in calls + gate { close(fd) } }
    let readTimeout: TimeInterval = 0.05
    let server = try SocketRequestServer<String>(
      listening: listener, rules: .init(readTimeout: readTimeout, maxConnections: 8),
      threadName: "test-socket-server",
      admit: { _ in
        var byte: UInt8 = 1
        _ = write(callsWrite, &byte, 1)
        _ = read(gateRead, &byte, 1)
        return true
      },
      frame: { received, ended in
        if received.last == UInt8(ascii: "\n") {
          return .complete(String(decoding: received.dropLast(), as: UTF8.self))
        }
        return ended ? .close : .waiting
      },
      timedOut: { _ in nil },
      respond: { request, fd in
        _ = UnixSocket.sendAll(Array("answer to \(request)\n".utf8), to: fd)
        close(fd)
      })
    defer { server.requestStop() }
    var open: UInt8 = 1

    // The first connection is let through, and read while it has sent nothing yet.
    _ = write(gateWrite, &open, 1)
    guard case .connected(let first) = UnixSocket.connect(to: path, timeout: 30) else {
      Issue.record("cannot connect")
      return
    }
    defer { close(first) }
    // The second holds the thread in `admit` (after the first was read: one thread does both).
    guard case .connected(let second) = UnixSocket.connect(to: path, timeout: 30) else {
      Issue.record("cannot connect")
      return
    }
    defer { close(second) }
    var called = 0
    try await waitUntil("admit holds the second connection") {
      while UnixSocket.waitUntilReadable(callsRead, milliseconds: 0) == 1 {
        var byte: UInt8 = 0
        if read(callsRead, &byte, 1) == 1 { called += 1 }
      }
      return called == 2
    }
    // The first request arrives while the thread is held, and its deadline passes.
    #expect(UnixSocket.sendAll(Array("first\n".utf8), to: first))
    try await Task.sleep(for: .seconds(readTimeout * 4))
    _ = write(gateWrite, &open, 1)

    // Read until the server closes the connection (dropped unanswered: nothing).
    var received: [UInt8] = []
    try await waitUntil("the first connection is answered or closed") {
      var chunk = [UInt8](repeating: 0, count: 256)
      while true {
        let count = recv(first, &chunk, chunk.count, Int32(MSG_DONTWAIT))
        guard count > 0 else { return count == 0 }
        received += chunk[0..<count]
      }
    }
    let answer = String(decoding: received, as: UTF8.self)
    #expect(answer == "answer to first\n")
  }
}
