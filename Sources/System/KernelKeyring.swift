internal import CKeyring

#if canImport(Glibc)
  import Glibc
#endif

/// Keys of type `user` in the Linux kernel's key retention service (keyrings(7)), through its
/// system calls: the calls `UnlockKeyCache` makes, each failure naming the call and its errno.
/// Nothing here keeps a key in memory longer than a call: payloads go in and come out through
/// buffers this type wipes.
enum KernelKeyring {
  /// A key's serial number.
  typealias Serial = Int32

  /// The user keyring (`@u`): every process of the user reaches it, it outlives any one login
  /// shell, and it holds the cached keys.
  static let user: Serial = authtui_user_keyring
  /// The process keyring (`@p`): the key is made there, finished, and only then linked into
  /// the user keyring, so no other process ever sees it without its timeout and permissions.
  static let process: Serial = authtui_process_keyring

  /// The permission mask of a cached key: view, read, write, search, link and set-attributes
  /// for its possessor and for its owner's other processes; nothing for the group or others.
  static let ownerOnly: UInt32 = 0x3f3f_0000

  /// A system call that failed, with its errno.
  struct Failure: Error, Sendable, Equatable {
    /// The call, as keyrings(7) names it (`add_key`, `keyctl(KEYCTL_SET_TIMEOUT)`).
    let call: String
    /// Its errno.
    let code: Int32
  }

  /// Fails, as every other call would, where the kernel has no key service or the process
  /// may not use it (a seccomp filter answering ENOSYS or EPERM); adds no key.
  static func checkAvailable() throws(Failure) {
    if authtui_keyring_id(user) < 0 {
      throw Failure(call: "keyctl(KEYCTL_GET_KEYRING_ID)", code: errno)
    }
  }

  /// Adds (or updates) the key `description` holding `payload` in `keyring`.
  static func add(_ description: String, payload: [UInt8], to keyring: Serial)
    throws(Failure) -> Serial
  {
    let serial = payload.withUnsafeBytes { bytes in
      authtui_add_key("user", description, bytes.baseAddress, bytes.count, keyring)
    }
    guard serial >= 0 else { throw Failure(call: "add_key", code: errno) }
    return serial
  }

  /// The key `description` in the user keyring, or nil when there is none there that this
  /// process may find (absent, expired, revoked, or the service unavailable).
  static func search(_ description: String) -> Serial? {
    let serial = authtui_search_key(user, "user", description)
    return serial >= 0 ? serial : nil
  }

  /// What `body` makes of the payload of `key` when it is exactly `length` bytes, handed to
  /// it in a buffer wiped afterwards; nil when the key cannot be read or holds another length.
  static func read<Result>(
    _ key: Serial, length: Int, _ body: (UnsafeRawBufferPointer) -> Result
  ) -> Result? {
    // One byte more than expected tells a longer payload from an exact one.
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: length + 1, alignment: 8)
    defer {
      wipe(buffer)
      buffer.deallocate()
    }
    guard authtui_read_key(key, buffer.baseAddress, buffer.count) == length else { return nil }
    return body(UnsafeRawBufferPointer(rebasing: buffer[0..<length]))
  }

  /// Overwrites `bytes` with zeros, in a way the optimiser keeps (`explicit_bzero`).
  static func wipe(_ bytes: UnsafeMutableRawBufferPointer) {
    guard let start = bytes.baseAddress else { return }
    explicit_bzero(start, bytes.count)
  }

  /// Sets the permission mask of `key`.
  static func setPermissions(_ key: Serial, _ permissions: UInt32) throws(Failure) {
    guard authtui_set_key_permissions(key, permissions) == 0 else {
      throw Failure(call: "keyctl(KEYCTL_SETPERM)", code: errno)
    }
  }

  /// Has the kernel remove `key` `seconds` from now.
  static func setTimeout(_ key: Serial, seconds: UInt32) throws(Failure) {
    guard authtui_set_key_timeout(key, seconds) == 0 else {
      throw Failure(call: "keyctl(KEYCTL_SET_TIMEOUT)", code: errno)
    }
  }

  /// Links `key` into `keyring`, displacing the key of the same description there.
  static func link(_ key: Serial, into keyring: Serial) throws(Failure) {
    guard authtui_link_key(key, keyring) == 0 else {
      throw Failure(call: "keyctl(KEYCTL_LINK)", code: errno)
    }
  }

  /// Removes `key` from `keyring`; false when it could not.
  @discardableResult
  static func unlink(_ key: Serial, from keyring: Serial) -> Bool {
    authtui_unlink_key(key, keyring) == 0
  }

  /// Ends `key` at once, in every keyring that links it (unlinking it from the user keyring
  /// where the kernel cannot invalidate); false when neither worked.
  @discardableResult
  static func remove(_ key: Serial) -> Bool {
    authtui_invalidate_key(key) == 0 || unlink(key, from: user)
  }
}
