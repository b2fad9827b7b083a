import Crypto
import Foundation
import TestSupport
import Testing
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui vault init | status | passwd` through the built binary.
@Suite struct VaultCommandTests {
  let directory: TemporaryDirectory
  let path: String

  init() throws {
    directory = try TemporaryDirectory()
    path = directory.path + "/data/vault.db"
  }

  /// `authtui ARGUMENTS…` on this test's vault, with no passphrase variable but those in
  /// `variables`, and an agent socket and configuration of its own; `withoutTerminal` runs it
  /// in a session of its own (`setsid`), where /dev/tty cannot be opened, `withoutKeyring`
  /// under a seccomp filter that refuses the kernel keyring's system calls (`keyringFilter`).
  func authtui(
    _ arguments: [String], _ variables: [String: String?] = [:], withoutTerminal: Bool = false,
    withoutKeyring: Bool = false
  ) async throws -> ChildProcess.Result {
    var changes: [String: String?] = [
      "AUTHTUI_VAULT": path, "AUTHTUI_AGENT_SOCKET": directory.file("agent/agent.sock"),
      "AUTHTUI_CONFIG_DIR": directory.file("config"),
      "AUTHTUI_PASSPHRASE": nil, "AUTHTUI_PASSPHRASE_FILE": nil,
      "AUTHTUI_PASSPHRASE_COMMAND": nil, "AUTHTUI_NEW_PASSPHRASE": nil,
      "AUTHTUI_NEW_PASSPHRASE_FILE": nil, "AUTHTUI_NEW_PASSPHRASE_COMMAND": nil,
    ]
    changes.merge(variables) { $1 }
    var command = [Products.authtui] + arguments
    if withoutKeyring { command = ["/usr/bin/python3", "-c", Self.keyringFilter] + command }
    if withoutTerminal { command = ["/usr/bin/setsid", "-w"] + command }
    return try await ChildProcess.run(
      command[0], Array(command.dropFirst()), environment: ChildProcess.environment(changes))
  }

  /// A vault with two accounts, made through the library with cheap scrypt parameters.
  func makeVault(passphrase: String = "old pass phrase") async throws {
    let vault = try await Vault.create(
      at: VaultLocation(path: path), passphrase: Passphrase(passphrase),
      parameters: Scrypt.Parameters(cost: 1 << 10, blockSize: 8, parallelism: 1))
    let now = Date()
    _ = try await vault.insert(contentsOf: [
      NewAccount(
        providerID: "simkl", label: "alice-label-zq",
        tokens: TokenSet(accessToken: "at-secret-zq", refreshToken: "rt-secret-zq", obtainedAt: now)
      ),
      NewAccount(
        providerID: "hivesigner", label: "bob-label-zq",
        tokens: TokenSet(accessToken: "at-other-zq", obtainedAt: now)),
    ])
    await vault.close()
  }

  @Test func initCreatesAPrivateVaultWithTheInteractiveParameters() async throws {
    let created = try await authtui(["vault", "init"], ["AUTHTUI_PASSPHRASE": "a fine passphrase"])
    #expect(created.status == 0, "\(created.stderr)")
    #expect(created.stdout.hasPrefix("Created the vault \(path)\n(scrypt N=2^17 r=8 p=1"))
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)

    let again = try await authtui(["vault", "init"], ["AUTHTUI_PASSPHRASE": "other"])
    #expect(again.status == 1)
    #expect(again.stderr.contains("a vault already exists at \(path)"))

    let status = try await authtui(["vault", "status"])
    #expect(status.status == 0)
    #expect(status.stdout.contains("key          scrypt N=2^17 r=8 p=1, 32-byte salt"))
    #expect(!(status.stdout + status.stderr).contains("a fine passphrase"))
  }

  @Test func aVaultWhoseHeaderAsksForAGigabyteOfScryptIsRefusedAsDamagedWithExitOne()
    async throws
  {
    try await makeVault()
    let altered = try await ChildProcess.run(
      "/usr/bin/env", ["sqlite3", path, "UPDATE vault_meta SET kdf_cost = 1048576"])
    #expect(altered.status == 0, "\(altered.stderr)")
    let listed = try await authtui(["list"], ["AUTHTUI_PASSPHRASE": "old pass phrase"])
    #expect(listed.status == 1)
    #expect(
      listed.stderr
        == "authtui: the header of the vault \(path) is damaged: kdf_cost 1048576 is outside what"
        + " authtui writes (1024 to 131072); the passphrase was not tried and nothing was changed:"
        + " restore the vault from a backup\n")
  }

  @Test func statusShowsTheFactsWithoutAPassphraseAndNoSecret() async throws {
    try await makeVault()
    let result = try await authtui(["--vault", path, "vault", "status"], ["AUTHTUI_VAULT": nil])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        vault        \(path)
        schema       version \(Vault.supportedSchemaVersion) (this authtui reads up to \(Vault.supportedSchemaVersion))
        key          scrypt N=2^10 r=8 p=1, 32-byte salt; AES-256-GCM cells
        accounts     2
        permissions  0600, private to its owner
        journal      wal
        unlock key   not cached (`authtui vault unlock --cache DURATION` keeps it for a while)

        """)
    // Every label and token of the vault ends in "-zq"; the temporary path may hold "zq" itself.
    for secret in ["-zq", "simkl", "hivesigner", "old pass phrase"] {
      #expect(!(result.stdout + result.stderr).contains(secret))
    }
  }

  /// Nothing but the pages of the unlock turns, whose one row was taken for the key
  /// derivation and deleted after it.
  @Test func aWrongPassphraseExitsThreeSaysWhatToDoAndChangesNothing() async throws {
    try await makeVault()
    let before = try await VaultFileEditor.bytesBesideTheUnlockTurns(path)
    let result = try await authtui(
      ["vault", "passwd"],
      ["AUTHTUI_PASSPHRASE": "not the passphrase", "AUTHTUI_NEW_PASSPHRASE": "new one"])
    #expect(result.status == 3)
    #expect(
      result.stderr == "authtui: the passphrase from AUTHTUI_PASSPHRASE does not open the vault"
        + " \(path) (nothing was changed); correct AUTHTUI_PASSPHRASE, or unset it to be asked on"
        + " the terminal\n")
    #expect(try await VaultFileEditor.bytesBesideTheUnlockTurns(path) == before)
    #expect(try await VaultFileEditor.sqlite(path, "SELECT count(*) FROM unlock_turns") == "0")
  }

  @Test func passwdReplacesThePassphraseFromTheNewPassphraseVariables() async throws {
    try await makeVault()
    let newFile = directory.file("new-passphrase")
    try "brand new phrase\nignored second line\n".write(
      toFile: newFile, atomically: true, encoding: .utf8)
    let changed = try await authtui(
      ["vault", "passwd"],
      [
        "AUTHTUI_PASSPHRASE_COMMAND": "printf 'old pass phrase\\n'",
        "AUTHTUI_NEW_PASSPHRASE_FILE": newFile,
      ])
    #expect(changed.status == 0, "\(changed.stderr)")
    #expect(changed.stdout.hasPrefix("Changed the passphrase of \(path)."))
    #expect(
      changed.stdout.contains(
        "Update AUTHTUI_PASSPHRASE_COMMAND where you set it: it gives the old passphrase now."))

    let vault = try await Vault.open(at: VaultLocation(path: path))
    await #expect(throws: VaultError.wrongPassphrase(path: path)) {
      try await vault.unlock(with: Passphrase("old pass phrase"))
    }
    try await vault.unlock(with: Passphrase("brand new phrase"))
    #expect(try await vault.listAccounts().accounts.count == 2)
    #expect(try await vault.status().kdfParameters == Scrypt.Parameters.interactive)
  }

  @Test func aGroupReadableVaultIsRefusedWithTheChmodToRun() async throws {
    try await makeVault()
    #expect(chmod(path, 0o644) == 0)
    let chmodLine = "run `chmod 600 '\(path)'` and try again"
    let passwd = try await authtui(
      ["vault", "passwd"], ["AUTHTUI_PASSPHRASE": "old pass phrase", "AUTHTUI_NEW_PASSPHRASE": "x"])
    #expect(passwd.status == 1)
    #expect(
      passwd.stderr
        == "authtui: the vault \(path) is readable or writable by other users (mode 0644); \(chmodLine)\n"
    )
    let status = try await authtui(["vault", "status"])
    #expect(status.status == 1)
    #expect(status.stdout.contains("permissions  0644, UNSAFE: run `chmod 600 '\(path)'`"))
    #expect(status.stderr.contains(chmodLine))
  }

  @Test func aPassphraseFileOthersMayReadIsWarnedOfWithTheChmodToRun() async throws {
    try await makeVault()
    let file = directory.file("passphrase")
    try "old pass phrase\n".write(toFile: file, atomically: true, encoding: .utf8)
    #expect(chmod(file, 0o644) == 0)
    let warned = try await authtui(["list"], ["AUTHTUI_PASSPHRASE_FILE": file])
    #expect(warned.status == 0, "\(warned.stderr)")
    #expect(
      warned.stderr
        == "authtui: warning: \(file) (named by AUTHTUI_PASSPHRASE_FILE) is readable by other "
        + "users (mode 0644), and so is the vault's passphrase in it; run `chmod 600 '\(file)'`\n")
    #expect(chmod(file, 0o600) == 0)
    let quiet = try await authtui(["list"], ["AUTHTUI_PASSPHRASE_FILE": file])
    #expect(quiet.status == 0, "\(quiet.stderr)")
    #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
  }

  /// The UI cannot warn on standard error (its screen is up): its status line says it, with
  /// the chmod to run, and the accounts show.
  @Test func theUIWarnsOfAPassphraseFileOthersMayReadOnItsStatusLine() async throws {
    try await makeVault()
    let file = directory.file("passphrase")
    try "old pass phrase\n".write(toFile: file, atomically: true, encoding: .utf8)
    #expect(chmod(file, 0o644) == 0)
    let session = try await TmuxSession.start(
      command: "env -u AUTHTUI_PASSPHRASE -u AUTHTUI_PASSPHRASE_COMMAND AUTHTUI_VAULT='\(path)' "
        + "AUTHTUI_CONFIG_DIR='\(directory.file("config"))' "
        + "AUTHTUI_AGENT_SOCKET='\(directory.file("agent/agent.sock"))' "
        + "AUTHTUI_PASSPHRASE_FILE='\(file)' '\(Products.authtui)'")
    defer { Task { await session.close() } }
    let screen = try await session.waitFor(
      "\(file) (named by AUTHTUI_PASSPHRASE_FILE) is readable by other users (mode 0644), and "
        + "so is the vault's passphrase in it; run `chmod 600 '\(file)'`", wrapped: true)
    #expect(screen.contains("alice-label-zq"))
    #expect(!screen.contains("warning: "))
    try await session.keys(["q"])
    #expect(try await session.waitFor("EXIT=").contains("EXIT=0"))
  }

  /// A passphrase file may be a pipe (bash's `<(pass show authtui)`); a folder or a device
  /// is refused by name, and /dev/zero is not read for ever.
  @Test func aPassphraseFileIsAFileOrAPipeAndAnythingElseIsSaidToBeWhatItIs() async throws {
    try await makeVault()
    var environment = ChildProcess.environment([
      "AUTHTUI_VAULT": path, "AUTHTUI_AGENT_SOCKET": directory.file("agent/agent.sock"),
      "AUTHTUI_CONFIG_DIR": directory.file("config"), "AUTHTUI_PASSPHRASE": nil,
      "AUTHTUI_PASSPHRASE_COMMAND": nil, "AUTHTUI_PASSPHRASE_FILE": nil,
    ])
    environment["AUTHTUI"] = Products.authtui
    let piped = try await ChildProcess.run(
      "/bin/bash",
      ["-c", #"AUTHTUI_PASSPHRASE_FILE=<(printf 'old pass phrase\n') "$AUTHTUI" list"#],
      environment: environment)
    #expect(piped.status == 0, "\(piped.stderr)")
    #expect(piped.stdout.contains("alice-label-zq"), "\(piped.stdout)")
    for (file, reason) in [
      (directory.path, "it is a folder, not a file"),
      ("/dev/zero", "it is a device or socket, not a file"),
    ] {
      let refused = try await authtui(["list"], ["AUTHTUI_PASSPHRASE_FILE": file])
      #expect(refused.status == 3, "\(refused.stderr)")
      #expect(
        refused.stderr
          == "authtui: cannot read \(file) (named by AUTHTUI_PASSPHRASE_FILE): \(reason); fix "
          + "the path or unset AUTHTUI_PASSPHRASE_FILE\n")
    }
  }

  /// A folder, a FIFO or a device where the vault file goes is named as such, never given a
  /// `chmod 600` (which on /dev/null would break the system) nor opened (a FIFO would hang).
  @Test func aVaultPathThatIsNoFileIsSaidToBeWhatItIs() async throws {
    let folder = directory.file("folder")
    let fifo = directory.file("fifo")
    #expect(mkdir(folder, 0o755) == 0 && mkfifo(fifo, 0o644) == 0)
    let point = "point --vault or AUTHTUI_VAULT at the vault file"
    for (vault, said) in [
      (folder, "a folder, not a vault file; \(point) (for example \(folder)/vault.db)"),
      (fifo, "a FIFO (named pipe), not a vault file; \(point)"),
      ("/dev/null", "a character device, not a vault file; \(point)"),
    ] {
      for arguments in [["list"], ["vault", "init"], ["vault", "status"]] {
        let result = try await authtui(
          arguments, ["AUTHTUI_VAULT": vault, "AUTHTUI_PASSPHRASE": "a pass phrase"])
        #expect(result.status == 1, "\(arguments) \(vault)")
        #expect(
          result.stderr.contains("authtui: the vault path \(vault) is \(said)\n"),
          "\(arguments): \(result.stderr)")
      }
    }
  }

  /// A file that is no vault is not a vault to change the passphrase of: `vault init` says
  /// what it is, and leaves it as it was.
  @Test func initOverAFileThatIsNoVaultSaysSo() async throws {
    let notes = directory.file("notes.txt")
    try "my notes, not a vault\n".write(toFile: notes, atomically: true, encoding: .utf8)
    let result = try await authtui(
      ["vault", "init"], ["AUTHTUI_VAULT": notes, "AUTHTUI_PASSPHRASE": "a pass phrase"])
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "authtui: \(notes) is not an authtui vault; point --vault or AUTHTUI_VAULT at the "
        + "vault file, or move this file away and run `authtui vault init`\n")
    #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes, not a vault\n")
  }

  /// `V=$(mktemp); AUTHTUI_VAULT=$V authtui vault init`: an empty file of this user's is where
  /// the vault goes, made 0600; one reached through a symbolic link, or another user's, is
  /// not taken, and stays as it was.
  @Test func initMakesTheVaultInAnEmptyFileOfTheUsersOwn() async throws {
    let empty = directory.file("empty")
    #expect(close(creat(empty, 0o644)) == 0)
    #expect(chmod(empty, 0o644) == 0)
    let created = try await authtui(
      ["vault", "init"], ["AUTHTUI_VAULT": empty, "AUTHTUI_PASSPHRASE": "a fine passphrase"])
    #expect(created.status == 0, "\(created.stderr)")
    #expect(created.stdout.hasPrefix("Created the vault \(empty)\n"))
    let mode = try FileManager.default.attributesOfItem(atPath: empty)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let status = try await authtui(["vault", "status"], ["AUTHTUI_VAULT": empty])
    #expect(status.status == 0, "\(status.stderr)")
    let list = try await authtui(
      ["list"], ["AUTHTUI_VAULT": empty, "AUTHTUI_PASSPHRASE": "a fine passphrase"])
    #expect(list.status == 0, "\(list.stderr)")

    let target = directory.file("target")
    let link = directory.file("link")
    #expect(close(creat(target, 0o600)) == 0)
    #expect(symlink(target, link) == 0)
    // The path given, the file it leads to, and why it is not taken.
    var refused = [
      (
        link, target,
        "a symbolic link to an empty file, and a vault is made only in a file the path names itself"
      )
    ]
    if geteuid() == 0 {
      let others = directory.file("others")
      #expect(close(creat(others, 0o600)) == 0)
      #expect(chown(others, 65534, 65534) == 0)
      refused.append((others, others, "an empty file of another user's"))
    }
    for (path, file, why) in refused {
      let result = try await authtui(
        ["vault", "init"], ["AUTHTUI_VAULT": path, "AUTHTUI_PASSPHRASE": "a fine passphrase"])
      #expect(result.status == 1, "\(path)")
      #expect(
        result.stderr
          == "authtui: cannot create the vault at \(path): it is \(why); choose a writable "
          + "location with --vault or AUTHTUI_VAULT\n")
      let info = try FileManager.default.attributesOfItem(atPath: file)
      #expect(info[.size] as? Int == 0, "\(path)")
      #expect(info[.posixPermissions] as? Int == 0o600, "\(path)")
    }
  }

  @Test func statusOfAMissingVaultSaysHowToCreateOne() async throws {
    let result = try await authtui(["vault", "status"])
    #expect(result.status == 1)
    #expect(
      result.stderr.contains("there is no vault at \(path); create one with `authtui vault init`"))
  }

  @Test func anUnknownActionIsAUsageError() async throws {
    let result = try await authtui(["vault", "open"])
    #expect(result.status == 2)
    #expect(
      result.stderr
        == "authtui: unknown action 'open' for 'vault' (`authtui help vault` lists its actions)\n")
  }

  @Test func withoutATerminalOrAVariableThePassphraseIsMissingAndTheExitIsThree() async throws {
    try await makeVault()
    let result = try await authtui(["vault", "passwd"], withoutTerminal: true)
    #expect(result.status == 3)
    #expect(
      result.stderr
        == "authtui: no passphrase: there is no terminal to ask on; set AUTHTUI_PASSPHRASE,"
        + " AUTHTUI_PASSPHRASE_FILE or AUTHTUI_PASSPHRASE_COMMAND\n")
  }

  /// A name that cannot be an account's is said before a passphrase is asked (a person
  /// would type it only to learn that), here where none could be.
  @Test func aMalformedAccountNameIsAUsageErrorBeforeAnyPassphrase() async throws {
    try await makeVault()
    for arguments in [
      ["token", "/alice"], ["logout", "simkl/"], ["export", ""], ["exec", "/x", "--", "true"],
      ["rename", "simkl/", "bob"],
    ] {
      let result = try await authtui(arguments, withoutTerminal: true)
      #expect(result.status == 2, "\(arguments): \(result.stderr)")
      #expect(
        result.stderr.hasPrefix(
          "authtui: \"\(arguments[1])\" is not an account name; write PROVIDER/LABEL (for "
            + "example simkl/alice), or PROVIDER alone when it has one account"),
        "\(arguments): \(result.stderr)")
    }
  }

  @Test func initOnATerminalAsksTwiceWithEchoOff() async throws {
    let session = try await TmuxSession.start(
      command: "env -u AUTHTUI_PASSPHRASE AUTHTUI_VAULT='\(path)' '\(Products.authtui)' vault init")
    defer { Task { await session.close() } }
    try await session.waitFor("New vault passphrase:")
    try await session.type("typed secret zq")
    try await session.waitFor("Repeat the passphrase:")
    try await session.type("typed secret zq")
    let screen = try await session.waitFor("EXIT=")
    #expect(screen.contains("Created the vault"))
    #expect(screen.contains("EXIT=0"))
    #expect(!screen.contains("typed secret"))
    let vault = try await Vault.open(at: VaultLocation(path: path))
    try await vault.unlock(with: Passphrase("typed secret zq"))
  }

  @Test func ctrlCAtThePromptCancelsWithExitSix() async throws {
    let session = try await TmuxSession.start(
      command: "env -u AUTHTUI_PASSPHRASE AUTHTUI_VAULT='\(path)' '\(Products.authtui)' vault init")
    defer { Task { await session.close() } }
    try await session.waitFor("New vault passphrase:")
    try await session.keys(["half typed", "C-c"])
    let screen = try await session.waitFor("EXIT=")
    #expect(screen.contains("EXIT=6"))
    #expect(!FileManager.default.fileExists(atPath: path))
  }
}

/// A detached tmux session on a private socket running one shell command, which then prints
/// `EXIT=<status>` and stays on screen for a minute at most.
private struct TmuxSession {
  let socket = "authtui-vault-test-\(UInt64.random(in: 0...UInt64.max))"

  static func start(command: String) async throws -> TmuxSession {
    let session = TmuxSession()
    try await session.tmux(
      [
        "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "20",
        command + "; echo EXIT=$?; sleep 60",
      ])
    return session
  }

  /// Types `text` and Enter.
  func type(_ text: String) async throws {
    try await keys([text, "Enter"])
  }

  /// Sends tmux key names or literal text, one argument each.
  func keys(_ keys: [String]) async throws {
    try await tmux(["send-keys"] + keys)
  }

  /// The screen once it contains `text` (a bounded wait, so a broken build fails, not hangs);
  /// `wrapped` finds it wrapped over lines too (the runs of spaces and line ends of the screen
  /// and of `text` read as one space).
  @discardableResult
  func waitFor(_ text: String, wrapped: Bool = false) async throws -> String {
    func spaced(_ text: String) -> String {
      text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
    var screen = ""
    for _ in 0..<300 {
      screen = try await tmux(["capture-pane", "-p"])
      if screen.contains(text) || (wrapped && spaced(screen).contains(spaced(text))) {
        return screen
      }
      try await Task.sleep(for: .milliseconds(50))
    }
    throw TmuxError.timedOut(text, screen)
  }

  func close() async {
    _ = try? await tmux(["kill-server"])
  }

  @discardableResult
  private func tmux(_ arguments: [String]) async throws -> String {
    let result = try await ChildProcess.run("/usr/bin/env", ["tmux", "-L", socket] + arguments)
    guard result.status == 0 else { throw TmuxError.failed(arguments, result.stderr) }
    return result.stdout
  }
}

private enum TmuxError: Error {
  case failed([String], String)
  case timedOut(String, String)
}
