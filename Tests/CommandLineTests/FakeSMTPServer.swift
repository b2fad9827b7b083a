import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// An SMTP server on 127.0.0.1 for one session, that accepts only `AUTH XOAUTH2` with the
/// expected bearer token: enough of RFC 5321 and Google's XOAUTH2 for a real mail client
/// (msmtp) to authenticate and send one message through it.
final class FakeSMTPServer: Sendable {
  /// What the session came to.
  struct Session: Sendable {
    /// The XOAUTH2 user and token the client sent, decoded.
    var user: String?
    var token: String?
    /// Whether the token was the expected one.
    var authenticated = false
    /// The message after DATA, without the final dot.
    var message: String?
  }

  let port: UInt16
  private let listener: Int32

  init() throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard fd >= 0, bound == 0, named == 0, listen(fd, 4) == 0 else {
      throw WorkspaceError("cannot listen for SMTP")
    }
    listener = fd
    port = UInt16(bigEndian: address.sin_port)
  }

  /// Serves one connection on a thread of its own, accepting `token` only.
  func serveOne(expecting token: String) async -> Session {
    let listener = self.listener
    return await withCheckedContinuation { continuation in
      Thread {
        defer { close(listener) }
        let connection = accept(listener, nil, nil)
        defer { close(connection) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(
          connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        continuation.resume(returning: Self.converse(on: connection, expecting: token))
      }.start()
    }
  }

  private static func converse(on fd: Int32, expecting expected: String) -> Session {
    var session = Session()
    func say(_ line: String) {
      _ = Array((line + "\r\n").utf8).withUnsafeBytes {
        send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
    }
    func hear() -> String? {
      var line: [UInt8] = []
      var byte: UInt8 = 0
      while recv(fd, &byte, 1, 0) == 1 {
        if byte == UInt8(ascii: "\n") {
          if line.last == UInt8(ascii: "\r") { line.removeLast() }
          return String(decoding: line, as: UTF8.self)
        }
        line.append(byte)
      }
      return nil
    }
    func authenticate(_ encoded: String) {
      // user=NAME ^A auth=Bearer TOKEN ^A ^A
      let decoded = Data(base64Encoded: encoded).map { String(decoding: $0, as: UTF8.self) } ?? ""
      for field in decoded.split(separator: "\u{1}") {
        if field.hasPrefix("user=") { session.user = String(field.dropFirst(5)) }
        if field.hasPrefix("auth=Bearer ") { session.token = String(field.dropFirst(12)) }
      }
      if session.token == expected {
        session.authenticated = true
        say("235 2.7.0 Accepted")
      } else {
        say("535 5.7.8 Username and Password not accepted")
      }
    }
    say("220 authtui-test ESMTP")
    while let line = hear() {
      let verb = line.split(separator: " ").first.map { $0.uppercased() } ?? ""
      switch verb {
      case "EHLO":
        say("250-authtui-test")
        say("250 AUTH XOAUTH2")
      case "HELO": say("250 authtui-test")
      case "AUTH":
        let words = line.split(separator: " ")
        guard words.count >= 2, words[1].uppercased() == "XOAUTH2" else {
          say("504 5.7.4 Unrecognized authentication type")
          continue
        }
        if words.count >= 3 {
          authenticate(String(words[2]))
        } else {
          say("334 ")
          authenticate(hear() ?? "")
        }
      case "MAIL", "RCPT":
        say(session.authenticated ? "250 2.1.0 OK" : "530 5.7.0 Authentication required")
      case "DATA":
        guard session.authenticated else {
          say("530 5.7.0 Authentication required")
          continue
        }
        say("354 End data with <CR><LF>.<CR><LF>")
        var message: [String] = []
        while let body = hear(), body != "." { message.append(body) }
        session.message = message.joined(separator: "\n")
        say("250 2.0.0 OK queued")
      case "QUIT":
        say("221 2.0.0 Bye")
        return session
      default: say("502 5.5.2 Not implemented")
      }
    }
    return session
  }
}
