import Crypto
import Foundation
import TestSupport
import Testing
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui vault unlock --cache`, `vault lock`, and every other command meeting the key they
/// leave in the kernel keyring, through the built binary and the real keyring (`keyctl` from
/// keyutils looks from outside). Each test's vault has an id of its own, so its key is its
/// own; each removes it at the end, whatever happened.
extension VaultCommandTests {
  /// The passphrase `makeVault` sets.
  static let passphrase = "old pass phrase"
  /// The refusal of a command that needs the passphrase and has neither the cached key, a
  /// variable nor a terminal.
  static let noPassphrase =
    "authtui: no passphrase: there is no terminal to ask on; set AUTHTUI_PASSPHRASE,"
    + " AUTHTUI_PASSPHRASE_FILE or AUTHTUI_PASSPHRASE_COMMAND\n"

  /// Runs the program of its arguments as a container's seccomp profile would (Docker's
  /// default one does this): `add_key`, `request_key` and `keyctl` fail with EPERM.
  static let keyringFilter = """
    import ctypes, os, platform, sys
    numbers = {"x86_64": (248, 249, 250), "aarch64": (217, 218, 219)}[platform.machine()]
    class Filter(ctypes.Structure):
        _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte),
                    ("k", ctypes.c_uint)]
    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Filter))]
    # Load the call's number; the three calls jump to "fail with EPERM"; the rest are allowed.
    steps = ([(0x20, 0, 0, 0)] + [(0x15, 3 - i, 0, n) for i, n in enumerate(numbers)]
             + [(0x06, 0, 0, 0x7fff0000), (0x06, 0, 0, 0x00050000 | 1)])
    filters = (Filter * len(steps))(*[Filter(*step) for step in steps])
    libc = ctypes.CDLL(None, use_errno=True)
    # PR_SET_NO_NEW_PRIVS, then PR_SET_SECCOMP with SECCOMP_MODE_FILTER.
    if (libc.prctl(38, 1, 0, 0, 0) != 0
            or libc.prctl(22, 2, ctypes.byref(Program(len(steps), filters)), 0, 0) != 0):
        sys.exit("seccomp: " + os.strerror(ctypes.get_errno()))
    os.execv(sys.argv[1], sys.argv[1:])
    """

  /// The key's description in the user keyring.
  func keyDescription() async throws -> String {
    "authtui:vault:" + (try await Vault.inspect(at: VaultLocation(path: path)).identifier)
  }

  /// The serial of this vault's key in the user keyring, as keyctl finds it; nil when none.
  func cachedKeySerial() async throws -> String? {
    let found = try await ChildProcess.run(
      "/usr/bin/keyctl", ["search", "@u", "user", try await keyDescription()])
    return found.status == 0 ? found.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : nil
  }

  /// `authtui vault unlock --cache DURATION` with `passphrase`, which must succeed.
  func cacheTheKey(
    for duration: String, passphrase: String = Self.passphrase,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let cached = try await authtui(
      ["vault", "unlock", "--cache", duration], ["AUTHTUI_PASSPHRASE": passphrase])
    #expect(cached.status == 0, "\(cached.stderr)", sourceLocation: sourceLocation)
  }

  /// Runs `body`, then removes this vault's key from the user keyring whatever happened.
  func removingTheCachedKey(_ body: () async throws -> Void) async throws {
    let description = try await keyDescription()
    var failure: (any Error)?
    do {
      try await body()
    } catch {
      failure = error
    }
    _ = try await ChildProcess.run(
      "/bin/sh",
      ["-c", "id=$(keyctl search @u user \"$1\") && keyctl invalidate \"$id\"", "-", description])
    if let failure { throw failure }
  }

  @Test func aCachedKeyOpensTheVaultForCommandsWithoutAPassphraseUntilLock() async throws {
    try await makeVault()
    try await removingTheCachedKey {
      let before = Date()
      let cached = try await authtui(
        ["vault", "unlock", "--cache", "600"], ["AUTHTUI_PASSPHRASE": Self.passphrase])
      let after = Date()
      // The keyring must be there (CI's machine has it): a sandbox without it fails here.
      #expect(cached.status == 0, "\(cached.stderr)")
      let prefix = "Cached the unlock key of the vault \(path) in the kernel keyring until "
      #expect(cached.stdout.hasPrefix(prefix))
      let until = String(cached.stdout.dropFirst(prefix.count).prefix { $0 != "." })
      let deadline = try #require(ISO8601DateFormatter().date(from: until))
      #expect(deadline.timeIntervalSince1970 >= before.timeIntervalSince1970.rounded(.down) + 600)
      #expect(deadline.timeIntervalSince1970 <= after.timeIntervalSince1970.rounded(.up) + 600)
      #expect(
        cached.stdout.hasSuffix(
          ".\nauthtui on this vault needs no passphrase until then; `authtui vault lock` "
            + "forgets the key sooner.\n"))

      let listed = try await authtui(["list"], withoutTerminal: true)
      #expect(listed.status == 0, "\(listed.stderr)")
      #expect(listed.stdout.contains("simkl/alice-label-zq"))
      #expect(listed.stdout.contains("hivesigner/bob-label-zq"))

      let status = try await authtui(["vault", "status"])
      #expect(status.status == 0)
      #expect(
        status.stdout.hasSuffix(
          "unlock key   cached in the kernel keyring until \(until) (user key "
            + "\(try await keyDescription()))\n"))

      // Only the owner's processes: possessor and user everything, group and others nothing.
      let serial = try #require(try await cachedKeySerial())
      let described = try await ChildProcess.run("/usr/bin/keyctl", ["rdescribe", serial])
      #expect(
        described.stdout == "user;\(getuid());\(getgid());3f3f0000;\(try await keyDescription())\n")
      // Nothing of the key in its description.
      #expect(!described.stdout.contains(Self.passphrase))

      // Caching again replaces the key and starts its time again (here a shorter one).
      let again = try await authtui(
        ["vault", "unlock", "--cache", "5m"], ["AUTHTUI_PASSPHRASE": Self.passphrase])
      #expect(again.status == 0, "\(again.stderr)")
      let replaced = try #require(again.stdout.split(separator: "\n").first)
      #expect(replaced.hasPrefix(prefix))
      #expect(replaced.hasSuffix(" (it replaced the key cached until \(until))."))
      let shorter = try #require(
        ISO8601DateFormatter().date(from: String(replaced.dropFirst(prefix.count).prefix(20))))
      #expect(shorter < deadline)
      #expect(try await cachedKeySerial() != serial)

      let locked = try await authtui(["vault", "lock"])
      #expect(locked.status == 0, "\(locked.stderr)")
      #expect(locked.stdout == "forgot the cached unlock key; no agent was running\n")
      #expect(try await cachedKeySerial() == nil)
      let refused = try await authtui(["list"], withoutTerminal: true)
      #expect(refused.status == 3)
      #expect(refused.stderr == Self.noPassphrase)
      let status2 = try await authtui(["vault", "status"])
      #expect(
        status2.stdout.hasSuffix(
          "unlock key   not cached (`authtui vault unlock --cache DURATION` keeps it for a "
            + "while)\n"))

      let lockedAgain = try await authtui(["vault", "lock"])
      #expect(lockedAgain.status == 0)
      #expect(lockedAgain.stdout == "nothing was cached; no agent was running\n")
    }
  }

  @Test func agentStartUnlocksWithTheCachedKeyAndLockStopsThatAgent() async throws {
    try await makeVault()
    try await removingTheCachedKey {
      try await cacheTheKey(for: "10m")
      let started = try await authtui(
        ["agent", "start", "--idle-timeout", "600"], withoutTerminal: true)
      #expect(started.status == 0, "\(started.stderr)")
      let socket = directory.file("agent/agent.sock")
      let line = started.stdout
      let pid = try #require(
        Int32(line.dropFirst("pid=".count).prefix { $0 != " " }), "agent start printed \(line)")
      #expect(line == "pid=\(pid) socket=\(socket)\n")

      let locked = try await authtui(["vault", "lock"])
      #expect(locked.status == 0, "\(locked.stderr)")
      #expect(locked.stdout == "forgot the cached unlock key; stopped the agent (pid \(pid))\n")
      #expect(!FileManager.default.fileExists(atPath: socket))
      #expect(try await cachedKeySerial() == nil)
      let refused = try await authtui(["list"], withoutTerminal: true)
      #expect(refused.status == 3)
      #expect(refused.stderr == Self.noPassphrase)
    }
  }

  @Test func lockLeavesAnAgentServingAnotherVaultRunning() async throws {
    try await makeVault()
    let other = directory.file("other/vault.db")
    let created = try await authtui(
      ["--vault", other, "vault", "init"], ["AUTHTUI_PASSPHRASE": "other phrase"])
    #expect(created.status == 0, "\(created.stderr)")
    let started = try await authtui(
      ["--vault", other, "agent", "start", "--idle-timeout", "600"],
      ["AUTHTUI_PASSPHRASE": "other phrase"])
    #expect(started.status == 0, "\(started.stderr)")
    let pid = try #require(Int32(started.stdout.dropFirst("pid=".count).prefix { $0 != " " }))
    let socket = directory.file("agent/agent.sock")
    // Stopped below; only while its socket is there is the pid still surely the agent's.
    defer { if FileManager.default.fileExists(atPath: socket) { kill(pid, SIGTERM) } }
    let locked = try await authtui(["vault", "lock"])
    #expect(locked.status == 0, "\(locked.stderr)")
    #expect(
      locked.stdout
        == "nothing was cached; the agent (pid \(pid)) on \(socket) serves another vault; "
        + "left it running\n")
    let stopped = try await authtui(["--vault", other, "agent", "stop"])
    #expect(stopped.status == 0, "\(stopped.stderr)")
  }

  @Test func withoutTheKeyringUnlockCacheSaysSoAndEveryOtherCommandAsksAsBefore() async throws {
    try await makeVault()
    try await removingTheCachedKey {
      let refused = try await authtui(
        ["vault", "unlock", "--cache", "1h"], ["AUTHTUI_PASSPHRASE": Self.passphrase],
        withoutKeyring: true)
      #expect(refused.status == 1)
      #expect(
        refused.stderr
          == "authtui: cannot cache the unlock key: the kernel keyring is not available to this "
          + "process (keyctl(KEYCTL_GET_KEYRING_ID): Operation not permitted, EPERM): the kernel "
          + "has no key service, or a sandbox forbids it (a container's seccomp profile blocks "
          + "the key system calls); nothing was cached: commands ask for the passphrase as "
          + "before (`authtui agent start` keeps the vault open for them instead)\n")
      #expect(refused.stdout.isEmpty)
      #expect(try await cachedKeySerial() == nil)

      // A key cached outside the sandbox is out of its reach: commands there ask as before,
      // and say nothing of the keyring.
      try await cacheTheKey(for: "1h")
      let asked = try await authtui(["list"], withoutTerminal: true, withoutKeyring: true)
      #expect(asked.status == 3)
      #expect(asked.stderr == Self.noPassphrase)
      let listed = try await authtui(
        ["list"], ["AUTHTUI_PASSPHRASE": Self.passphrase], withoutKeyring: true)
      #expect(listed.status == 0)
      #expect(listed.stderr.isEmpty)
      #expect(listed.stdout.contains("simkl/alice-label-zq"))
      let status = try await authtui(["vault", "status"], withoutKeyring: true)
      #expect(status.status == 0)
      #expect(status.stdout.contains("\nunlock key   not cached"))
      #expect(try await cachedKeySerial() != nil)
    }
  }

  @Test func passwdRemovesTheCachedKeyAndAStaleKeyIsRefusedAndRemoved() async throws {
    try await makeVault()
    try await removingTheCachedKey {
      try await cacheTheKey(for: "15m")
      let changed = try await authtui(
        ["vault", "passwd"],
        ["AUTHTUI_PASSPHRASE": Self.passphrase, "AUTHTUI_NEW_PASSPHRASE": "second phrase"])
      #expect(changed.status == 0, "\(changed.stderr)")
      #expect(
        changed.stdout
          == "Changed the passphrase of \(path).\nRemoved the unlock key cached in the kernel "
          + "keyring: the new passphrase made it stale (`authtui vault unlock --cache DURATION` "
          + "caches the new one).\nUpdate AUTHTUI_PASSPHRASE where you set it: it gives the old "
          + "passphrase now.\n")
      #expect(try await cachedKeySerial() == nil)
      let refused = try await authtui(["list"], withoutTerminal: true)
      #expect(refused.status == 3)
      #expect(refused.stderr == Self.noPassphrase)

      // A key cached before the passphrase changed by other means (here the library) is
      // refused by the vault, removed, and the command asks for the passphrase as before.
      try await cacheTheKey(for: "15m", passphrase: "second phrase")
      let vault = try await Vault.open(at: VaultLocation(path: path))
      try await vault.unlock(with: Passphrase("second phrase"))
      try await vault.changePassphrase(
        to: Passphrase("third phrase"),
        parameters: Scrypt.Parameters(cost: 1 << 10, blockSize: 8, parallelism: 1))
      await vault.close()
      #expect(try await cachedKeySerial() != nil)
      let stale = try await authtui(["list"], withoutTerminal: true)
      #expect(stale.status == 3)
      #expect(stale.stderr == Self.noPassphrase)
      #expect(try await cachedKeySerial() == nil)
      // A passphrase variable works as it always did.
      let listed = try await authtui(["list"], ["AUTHTUI_PASSPHRASE": "third phrase"])
      #expect(listed.status == 0, "\(listed.stderr)")
      #expect(listed.stdout.contains("simkl/alice-label-zq"))
    }
  }

  @Test func aBadDurationOrAWrongPassphraseCachesNothing() async throws {
    try await makeVault()
    try await removingTheCachedKey {
      for (value, shown) in [("5x", "5x"), ("0", "0"), ("8d", "8d"), ("-5m", "-5m"), ("", "")] {
        let refused = try await authtui(
          ["vault", "unlock", "--cache", value], ["AUTHTUI_PASSPHRASE": Self.passphrase])
        #expect(refused.status == 2, "--cache \(value)")
        let expected =
          value.isEmpty
          ? "authtui: 'vault unlock' needs --cache DURATION, how long the key stays cached "
            + "(90s, 15m, 8h, 2d; at most 7d)\n"
          : "authtui: --cache takes a duration such as 90s, 15m, 8h or 2d (a bare number is "
            + "seconds), from 1s to 7d, not \"\(shown)\"\n"
        #expect(refused.stderr == expected, "--cache \(value)")
      }
      let missing = try await authtui(["vault", "unlock"], ["AUTHTUI_PASSPHRASE": Self.passphrase])
      #expect(missing.status == 2)
      #expect(
        missing.stderr
          == "authtui: 'vault unlock' needs --cache DURATION, how long the key stays cached "
          + "(90s, 15m, 8h, 2d; at most 7d)\n")

      let wrong = try await authtui(
        ["vault", "unlock", "--cache", "1h"], ["AUTHTUI_PASSPHRASE": "not the passphrase"])
      #expect(wrong.status == 3)
      #expect(
        wrong.stderr
          == "authtui: the passphrase from AUTHTUI_PASSPHRASE does not open the vault \(path) "
          + "(nothing was changed); correct AUTHTUI_PASSPHRASE, or unset it to be asked on the "
          + "terminal\n")
      #expect(try await cachedKeySerial() == nil)
    }
  }
}
