import Foundation
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// A vault's unlock key kept in the Linux kernel for a while (`authtui vault unlock --cache`),
/// so that every authtui process on that vault unlocks without a passphrase and without scrypt
/// until it ends: across agent restarts and shell logouts, with no daemon and no D-Bus.
///
/// The key is a `user` key in the user keyring (`@u`), described `authtui:vault:<vault id>`
/// (the id in the vault's header, not its path: a moved or linked vault is the same vault,
/// another vault at the same path is not). Its payload is the deadline (8 bytes, big-endian
/// Unix seconds) and the 32-byte `VaultUnlockKey`; the kernel removes it at that deadline
/// (its timeout). Its permissions give it to the user's own processes only (possessor and
/// user: view, read, write, search, link, set attributes; group and others nothing), and root.
/// It never touches a file, argv, the environment or a log.
///
/// A key that no longer opens the vault (its passphrase changed since) is refused by the
/// vault's authenticated unwrap; the caller then removes it (`forget`).
package enum UnlockKeyCache {
  /// The longest a key may stay cached: a week (`vault unlock --cache 7d`).
  package static let longest = 7 * 24 * 3600

  /// The key's description for the vault whose id is `vaultID`.
  package static func keyDescription(vaultID: String) -> String { "authtui:vault:\(vaultID)" }

  /// A cached key.
  package struct Entry: Sendable {
    /// The key.
    package let key: VaultUnlockKey
    /// When the kernel removes it, to the second.
    package let until: Date
  }

  /// What `store` did.
  package struct Stored: Sendable, Equatable {
    /// When the kernel removes the key, to the second.
    package let until: Date
    /// When the key it replaced would have ended, if one was cached.
    package let replaced: Date?
  }

  private static let payloadLength = 8 + VaultUnlockKey.byteCount

  /// Fails where the kernel keyring cannot be used at all (no key service, or a sandbox
  /// forbidding it), before a passphrase is asked for nothing; changes nothing.
  package static func checkAvailable() throws(UnlockKeyCacheFailure) {
    do throws(KernelKeyring.Failure) {
      try KernelKeyring.checkAvailable()
    } catch {
      throw UnlockKeyCacheFailure(call: error.call, code: error.code)
    }
  }

  /// Caches `key` for the vault `vaultID` for `seconds` (1 to `longest`), replacing (and
  /// so restarting the time of) one cached before; says until when, and what it replaced. The
  /// key is finished in this process's own keyring (payload, permissions, timeout) and only
  /// then linked into the user keyring, so no other process sees it unfinished, and a failure
  /// leaves what was cached as it was.
  @discardableResult
  package static func store(_ key: VaultUnlockKey, vaultID: String, seconds: Int)
    throws(UnlockKeyCacheFailure) -> Stored
  {
    precondition((1...longest).contains(seconds), "a cache time is checked when it is read")
    do throws(KernelKeyring.Failure) {
      try KernelKeyring.checkAvailable()
      let description = keyDescription(vaultID: vaultID)
      let previous = KernelKeyring.search(description)
      let replaced = previous.flatMap { entry(at: $0)?.until }
      // The kernel counts the timeout from its own clock's second (real time), as `time`.
      let deadline = Int64(time(nil)) + Int64(seconds)
      var payload = withUnsafeBytes(of: UInt64(deadline).bigEndian) { Array($0) } + key.bytes
      defer { payload.withUnsafeMutableBytes(KernelKeyring.wipe) }
      let serial = try KernelKeyring.add(description, payload: payload, to: KernelKeyring.process)
      do throws(KernelKeyring.Failure) {
        try KernelKeyring.setPermissions(serial, KernelKeyring.ownerOnly)
        try KernelKeyring.setTimeout(serial, seconds: UInt32(seconds))
        try KernelKeyring.link(serial, into: KernelKeyring.user)
      } catch {
        KernelKeyring.remove(serial)
        throw error
      }
      KernelKeyring.unlink(serial, from: KernelKeyring.process)
      // Linking displaced it from the user keyring; a link to it made elsewhere by hand
      // would keep it alive.
      if let previous, previous != serial { KernelKeyring.remove(previous) }
      return Stored(until: Date(timeIntervalSince1970: TimeInterval(deadline)), replaced: replaced)
    } catch {
      throw UnlockKeyCacheFailure(call: error.call, code: error.code)
    }
  }

  /// The key cached for the vault `vaultID`, or nil when none is (or the kernel keyring is
  /// not available: nothing is said, the caller asks for the passphrase as before). A key of
  /// that description that is not one authtui wrote is removed.
  package static func entry(vaultID: String) -> Entry? {
    guard let serial = KernelKeyring.search(keyDescription(vaultID: vaultID)) else { return nil }
    guard let entry = entry(at: serial) else {
      KernelKeyring.remove(serial)
      return nil
    }
    return entry
  }

  /// When the key cached for the vault `vaultID` ends, to the second; nil when none is cached.
  package static func until(vaultID: String) -> Date? {
    entry(vaultID: vaultID)?.until
  }

  /// Removes the key cached for the vault `vaultID`; false when there was none.
  @discardableResult
  package static func forget(vaultID: String) -> Bool {
    var removed = false
    // A second one could only be in a keyring linked into the user keyring by hand.
    for _ in 0..<8 {
      guard let serial = KernelKeyring.search(keyDescription(vaultID: vaultID)),
        KernelKeyring.remove(serial)
      else { break }
      removed = true
    }
    return removed
  }

  private static func entry(at serial: KernelKeyring.Serial) -> Entry? {
    KernelKeyring.read(serial, length: payloadLength) { payload -> Entry? in
      let deadline = payload.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      guard let key = VaultUnlockKey(bytes: Array(payload.dropFirst(8))) else { return nil }
      return Entry(key: key, until: Date(timeIntervalSince1970: TimeInterval(deadline)))
    } ?? nil
  }
}
