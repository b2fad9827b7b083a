import Foundation
import Loopback

#if canImport(Glibc)
  import Glibc
#endif

/// The loopback address the sandbox provider binds (`--listen 127.0.0.1:PORT`).
///
/// Only 127.0.0.1 is accepted: the sandbox hands out tokens to anyone who asks, so it must never
/// be reachable from another machine.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
  /// The host, always `127.0.0.1`.
  public let host: String
  /// The TCP port; 0 asks the kernel for a free one.
  public let port: UInt16

  /// Port `port` on 127.0.0.1.
  public init(port: UInt16) {
    self.host = "127.0.0.1"
    self.port = port
  }

  /// Parses `127.0.0.1:PORT` (or a bare `PORT`).
  public init(parsing text: String) throws {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    let portText: Substring
    switch parts.count {
    case 1:
      portText = parts[0]
    case 2 where parts[0] == "127.0.0.1":
      portText = parts[1]
    default:
      throw ListenAddressError(text: text)
    }
    guard let port = UInt16(portText) else { throw ListenAddressError(text: text) }
    self.init(port: port)
  }

  public var description: String { "\(host):\(port)" }

  /// A loopback port nothing listens on now, for a redirect port to register with the sandbox
  /// before the app that will listen on it starts: outside the ephemeral range, so nothing
  /// else is handed it in between (`LoopbackServer.freeFixedPort`); nil when no socket could
  /// be opened.
  public static func freeLoopbackPort() -> UInt16? {
    LoopbackServer.freeFixedPort()
  }
}

/// A `--listen` value that is not `127.0.0.1:PORT`.
public struct ListenAddressError: Error, Equatable, CustomStringConvertible {
  /// What the user gave.
  public let text: String

  public var description: String {
    "--listen takes 127.0.0.1:PORT with PORT from 0 to 65535 (0 picks a free port), not \"\(text)\""
  }
}
