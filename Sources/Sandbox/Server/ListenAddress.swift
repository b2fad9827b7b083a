import Foundation

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

  /// A loopback port nothing listens on now (bound to 0, read back, released), for a redirect
  /// port to register with the sandbox before the app that will listen on it starts; nil when
  /// no socket could be opened.
  public static func freeLoopbackPort() -> UInt16? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr = in_addr(s_addr: INADDR_LOOPBACK.bigEndian)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
      }
    }
    guard bound else { return nil }
    return UInt16(bigEndian: address.sin_port)
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
