import Foundation
import Testing
import Vault

@testable import System

#if canImport(Glibc)
  import Glibc
#endif

/// The kernel keyring as `vault unlock --cache` uses it, through the real system calls, with
/// `keyctl` (keyutils) to look from outside. Each test uses a vault id of its own, so tests
/// running at once never meet, and removes what it cached.
@Suite struct UnlockKeyCacheTests {
  let vaultID = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
  var description: String { UnlockKeyCache.keyDescription(vaultID: vaultID) }

  private func key(_ byte: UInt8) throws -> VaultUnlockKey {
    try #require(VaultUnlockKey(bytes: [UInt8](repeating: byte, count: VaultUnlockKey.byteCount)))
  }

  /// What `keyctl ARGUMENTS…` printed, and whether it succeeded.
  private func keyctl(_ arguments: [String]) throws -> (ok: Bool, output: String) {
    let (termination, output) = try SpawnedProcess.output(
      of: "/usr/bin/keyctl", arguments: arguments, standardInput: .null, standardError: .null)
    return (termination == .exited(0), String(decoding: output, as: UTF8.self))
  }

  /// The serial of the key in the user keyring, as keyctl finds it; nil when there is none.
  private func serial() throws -> String? {
    let found = try keyctl(["search", "@u", "user", description])
    return found.ok ? found.output.trimmingCharacters(in: .whitespacesAndNewlines) : nil
  }

  /// The expiry column of /proc/keys for `serial` (`10m`, `59s`).
  private func expiryColumn(_ serial: String) throws -> String? {
    let number = try #require(Int(serial))
    let lines = try String(contentsOfFile: "/proc/keys", encoding: .utf8).split(separator: "\n")
    for line in lines {
      let columns = line.split(separator: " ")
      if columns.count > 3, Int(columns[0], radix: 16) == number { return String(columns[3]) }
    }
    return nil
  }

  @Test func aCachedKeyIsTheOwnersAloneEndsOnTimeAndCachingAgainRestartsItsTime() throws {
    defer { UnlockKeyCache.forget(vaultID: vaultID) }
    let before = Date()
    let first = try UnlockKeyCache.store(try key(1), vaultID: vaultID, seconds: 600)
    let after = Date()
    #expect(first.replaced == nil)
    // The deadline counts from `time()`, the kernel's coarse real-time second, as the key's
    // timeout does; it may not have ticked yet when `Date()`'s fine clock has passed the
    // second (CI once found it a second behind `before`), so a second's slack below.
    #expect(
      first.until.timeIntervalSince1970 >= before.timeIntervalSince1970.rounded(.down) - 1 + 600)
    #expect(first.until.timeIntervalSince1970 <= after.timeIntervalSince1970.rounded(.up) + 600)
    let entry = try #require(UnlockKeyCache.entry(vaultID: vaultID))
    #expect(entry.key == (try key(1)))
    #expect(entry.until == first.until)

    let cached = try #require(try serial(), "the key is in the user keyring")
    // type;uid;gid;permissions;description: possessor and user everything, group and others
    // nothing.
    #expect(
      try keyctl(["rdescribe", cached]).output
        == "user;\(getuid());\(getgid());3f3f0000;\(description)\n")
    // The kernel's own timeout, in the minutes /proc/keys rounds it down to.
    let minutes = try #require(try expiryColumn(cached))
    #expect(minutes.hasSuffix("m") && (1...10).contains(Int(minutes.dropLast()) ?? 0), "\(minutes)")

    let second = try UnlockKeyCache.store(try key(2), vaultID: vaultID, seconds: 30)
    #expect(second.replaced == first.until)
    #expect(second.until < first.until)
    #expect(UnlockKeyCache.entry(vaultID: vaultID)?.key == (try key(2)))
    let replacement = try #require(try serial())
    let seconds = try #require(try expiryColumn(replacement))
    #expect(seconds.hasSuffix("s") && (Int(seconds.dropLast()) ?? 99) <= 30, "\(seconds)")
    #expect(try keyctl(["rdescribe", replacement]).output.contains(";3f3f0000;"))

    #expect(UnlockKeyCache.forget(vaultID: vaultID))
    #expect(try serial() == nil)
    #expect(UnlockKeyCache.entry(vaultID: vaultID) == nil)
    #expect(!UnlockKeyCache.forget(vaultID: vaultID))
  }

  @Test func aKeyOfThatNameAuthtuiDidNotWriteIsRemovedNotUsed() throws {
    defer { UnlockKeyCache.forget(vaultID: vaultID) }
    let added = try keyctl(["add", "user", description, "not forty bytes", "@u"])
    #expect(added.ok, "keyctl add: \(added.output)")
    #expect(try serial() != nil)
    #expect(UnlockKeyCache.entry(vaultID: vaultID) == nil)
    #expect(try serial() == nil)
  }

  @Test func aKeyringTheProcessMayNotUseIsNamedWithTheErrnoAndWhy() {
    #expect(
      UnlockKeyCacheFailure(call: "add_key", code: EPERM).description
        == "the kernel keyring is not available to this process (add_key: Operation not "
        + "permitted, EPERM): the kernel has no key service, or a sandbox forbids it (a "
        + "container's seccomp profile blocks the key system calls)")
    #expect(
      UnlockKeyCacheFailure(call: "add_key", code: EDQUOT).description
        == "the kernel keyring is full for this user (add_key: Disk quota exceeded, EDQUOT): "
        + "its key quota is /proc/sys/kernel/keys/maxkeys and maxbytes, and /proc/key-users "
        + "shows what is used")
  }
}
