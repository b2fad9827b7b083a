import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Who is at the other end of a connection accepted on 127.0.0.1: the user that owns the
/// client's socket, as `/proc/net/tcp` says (the kernel lists every TCP socket with its
/// owner's uid; TCP has no `SO_PEERCRED`). A sign-in's listener serves its user only: another
/// user of the machine who read its one-time address in `ps` (the browser's arguments) must not
/// answer it first and sign the user in to the wrong account.
package enum LoopbackPeer {
  /// True when the client of the accepted socket `fd` belongs to this process's user, or
  /// cannot be told (no `/proc`, the line gone): only another user's socket, found, is not.
  /// Root is refused nobody (it can read the address and the tokens anyway).
  package static func isOwnUser(_ fd: Int32, table: String = "/proc/net/tcp") -> Bool {
    let own = geteuid()
    guard own != 0, let owner = ownerUID(of: fd, table: table) else { return true }
    return owner == own
  }

  /// The uid that owns the client socket of `fd`, an IPv4 connection accepted here: the line
  /// of `table` whose local address is `fd`'s peer and whose remote address is `fd`'s own end.
  package static func ownerUID(of fd: Int32, table: String = "/proc/net/tcp") -> uid_t? {
    guard let peer = address(of: fd, peer: true), let local = address(of: fd, peer: false),
      let text = readWhole(table)
    else { return nil }
    return ownerUID(in: text, client: peer, server: local)
  }

  /// The whole of the `/proc` file at `path`, read to its end (such a file says it is empty,
  /// and `String(contentsOfFile:)` sees its first page only), as System's `StartupPages`
  /// reads one.
  static func readWhole(_ path: String) -> String? {
    guard let file = FileHandle(forReadingAtPath: path), let data = try? file.readToEnd()
    else { return nil }
    try? file.close()
    return String(decoding: data, as: UTF8.self)
  }

  /// The uid on the line of `table` (the text of `/proc/net/tcp`) for the socket at `client`
  /// connected to `server`, each `ADDRESS:PORT` in the table's hex.
  package static func ownerUID(in table: String, client: String, server: String) -> uid_t? {
    for line in table.split(separator: "\n").dropFirst() {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid …
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count > 7, fields[1] == client, fields[2] == server else { continue }
      return uid_t(fields[7])
    }
    return nil
  }

  /// `fd`'s peer's (or own) IPv4 address as `/proc/net/tcp` writes it: the address's four
  /// bytes as the kernel holds them, read as one host-order number in 8 hex digits, a colon,
  /// and the port in 4.
  static func address(of fd: Int32, peer: Bool) -> String? {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let result = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length)
      }
    }
    guard result == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
    return hex(address.sin_addr.s_addr, digits: 8) + ":"
      + hex(UInt32(UInt16(bigEndian: address.sin_port)), digits: 4)
  }

  private static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
