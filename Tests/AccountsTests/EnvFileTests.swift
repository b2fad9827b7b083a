import Accounts
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct EnvFileTests {
  static let awkwardTokens = [
    "it's", "$HOME and $(reboot)", "`id`", "two words", "line\nbreak", "'\\''", "ends with '",
    "é 😀 \t tab", "",
    // A quote with a combining mark is one Character but still a quote to the shell.
    "a'\u{301}; echo INJECTED; '",
  ]

  @Test(arguments: awkwardTokens)
  func bringsAnyTokenBackIntactThroughAShell(token: String) async throws {
    let folder = try TemporaryDirectory()
    let file = folder.file("tokens.env")
    try EnvFile.write(variable: "SIMKL_TOKEN", value: token, expiresAt: nil, to: file)
    let read = try await ChildProcess.run(
      "/bin/sh", ["-c", ". \"$1\"; printf %s \"$SIMKL_TOKEN\"", "sh", file])
    #expect(read.status == 0, "\(read.stderr)")
    #expect(read.stdout == token)
  }

  @Test func replacesOnlyItsOwnVariablesEvenAfterAMultiLineValue() async throws {
    let folder = try TemporaryDirectory()
    let file = folder.file("tokens.env")
    try "A=1\n# comment\nexport B='two'\n".write(toFile: file, atomically: true, encoding: .utf8)
    try EnvFile.write(
      variable: "T", value: "first\nsecond 'quoted'",
      expiresAt: Date(timeIntervalSince1970: 1_800_000_000),
      to: file)
    try EnvFile.write(variable: "U", value: "other", expiresAt: nil, to: file)
    try EnvFile.write(variable: "T", value: "new", expiresAt: nil, to: file)
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(
      text
        == "A=1\n# comment\nexport B='two'\nU='other'\nU_EXPIRES_AT=''\nT='new'\nT_EXPIRES_AT=''\n")
  }

  @Test func keepsCommentsAndDoubleQuotedValuesThatHoldAnApostrophe() async throws {
    let folder = try TemporaryDirectory()
    let file = folder.file("tokens.env")
    let mine = "# don't touch\nGREETING=\"it's me\"\nT='old'\n"
    try folder.write(mine, to: "tokens.env")
    try EnvFile.write(variable: "T", value: "new", expiresAt: nil, to: file)
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(text == "# don't touch\nGREETING=\"it's me\"\nT='new'\nT_EXPIRES_AT=''\n")
    let read = try await ChildProcess.run(
      "/bin/sh", ["-c", ". \"$1\"; printf '%s|%s' \"$GREETING\" \"$T\"", "sh", file])
    #expect(read.stdout == "it's me|new")
  }

  @Test(arguments: [
    ("A='never closed\n", 1), ("A=1\nB=\"open\nC=3\n", 2), ("A=1\nB=x\\", 2),
    ("A=1\nB=x\\\n", 2),
  ])
  func refusesAFileWhoseLastStatementNeverEndsAndLeavesItAlone(text: String, line: Int) throws {
    let folder = try TemporaryDirectory()
    let file = folder.file("tokens.env")
    try folder.write(text, to: "tokens.env")
    #expect {
      try EnvFile.write(variable: "T", value: "new", expiresAt: nil, to: file)
    } throws: { error in
      "\(error)".contains("from line \(line) on, never ends")
    }
    #expect(try String(contentsOfFile: file, encoding: .utf8) == text)
  }

  @Test func writesTheExpiryInSecondsSince1970AndTheFileAs0600() async throws {
    let folder = try TemporaryDirectory()
    let file = folder.file("tokens.env")
    try EnvFile.write(
      variable: "T", value: "x", expiresAt: Date(timeIntervalSince1970: 1_800_000_000), to: file)
    let read = try await ChildProcess.run(
      "/bin/sh", ["-c", ". \"$1\"; printf %s \"$T_EXPIRES_AT\"", "sh", file])
    #expect(read.stdout == "1800000000")
    var info = stat()
    stat(file, &info)
    #expect(info.st_mode & 0o777 == 0o600)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(leftovers == ["tokens.env"])
  }

  @Test func replacesOnlyTheOldTokenLineOfACRLFFileAndKeepsTheOtherLinesAsTheyWere() throws {
    let folder = try TemporaryDirectory()
    let file = folder.file("tokens.env")
    try "FOO=bar\r\nSANDBOX_TOKEN=old\r\nSANDBOX_TOKEN_EXPIRES_AT=1\r\nBAZ='q'\r\n".write(
      toFile: file, atomically: true, encoding: .utf8)
    try EnvFile.write(variable: "SANDBOX_TOKEN", value: "new", expiresAt: nil, to: file)
    let text = try String(contentsOfFile: file, encoding: .utf8)
    // The lines authtui writes end in LF alone: a CR would become part of a value in `sh`.
    #expect(
      text == "FOO=bar\r\nBAZ='q'\r\nSANDBOX_TOKEN='new'\nSANDBOX_TOKEN_EXPIRES_AT=''\n")
  }

  @Test func replacesTheTargetOfASymlinkAndKeepsTheLink() throws {
    let folder = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: folder.file("dotfiles"), withIntermediateDirectories: false)
    let target = folder.file("dotfiles/tokens.env")
    try "KEEP=1\n".write(toFile: target, atomically: true, encoding: .utf8)
    chmod(target, 0o644)
    let link = folder.file("tokens.env")
    #expect(symlink("dotfiles/tokens.env", link) == 0)

    try EnvFile.write(variable: "T", value: "tok", expiresAt: nil, to: link)

    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: link) == "dotfiles/tokens.env")
    #expect(
      try String(contentsOfFile: target, encoding: .utf8) == "KEEP=1\nT='tok'\nT_EXPIRES_AT=''\n")
    var info = stat()
    #expect(lstat(target, &info) == 0)
    #expect(info.st_mode & S_IFMT == S_IFREG)
    #expect(info.st_mode & 0o777 == 0o600)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.file("dotfiles")) == ["tokens.env"]
    )
  }

  @Test func refusesAFolderAndLeavesItAlone() throws {
    let folder = try TemporaryDirectory()
    let directory = folder.file("tokens.env")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    #expect(
      throws: AccountsError.envFile(
        path: directory,
        reason: "it is a folder, not a regular file: give the path of an env file")
    ) {
      try EnvFile.write(variable: "T", value: "tok", expiresAt: nil, to: directory)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["tokens.env"])
  }

  @Test func refusesASocketAndASymlinkToOneWithoutOpeningIt() throws {
    let folder = try TemporaryDirectory()
    let socketPath = folder.file("s")
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(listener) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (offset, byte) in socketPath.utf8.enumerated() { raw[offset] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    try #require(bound == 0)
    #expect(symlink("s", folder.file("link")) == 0)

    for (path, lead) in [
      (socketPath, "it is"), (folder.file("link"), "it is a symlink to \(socketPath), which is"),
    ] {
      #expect(
        throws: AccountsError.envFile(
          path: path, reason: "\(lead) a socket, not a regular file: give the path of an env file")
      ) {
        try EnvFile.write(variable: "T", value: "tok", expiresAt: nil, to: path)
      }
    }
    var info = stat()
    #expect(lstat(socketPath, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK)
  }

  @Test func refusesADanglingSymlinkAndASymlinkLoopWithTheirOwnMessages() throws {
    let folder = try TemporaryDirectory()
    let dangling = folder.file("dangling.env")
    #expect(symlink("missing/tokens.env", dangling) == 0)
    #expect(symlink("loop-b", folder.file("loop-a")) == 0)
    #expect(symlink("loop-a", folder.file("loop-b")) == 0)
    #expect(
      throws: AccountsError.envFile(
        path: dangling,
        reason: "it is a symlink to missing/tokens.env, which does not exist (a dangling link): "
          + "create the file it should point to, or give the path of an env file")
    ) {
      try EnvFile.write(variable: "T", value: "tok", expiresAt: nil, to: dangling)
    }
    #expect(
      throws: AccountsError.envFile(
        path: folder.file("loop-a"),
        reason: "it is a symlink that never reaches a file (a loop, through loop-b): fix the "
          + "link, or give the path of an env file")
    ) {
      try EnvFile.write(variable: "T", value: "tok", expiresAt: nil, to: folder.file("loop-a"))
    }
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
        "dangling.env", "loop-a", "loop-b",
      ])
  }

  /// Root can give a file away; anyone else cannot make one owned by another user to test with.
  @Test(.enabled(if: geteuid() == 0))
  func refusesAFileOfAnotherUserNamingItsOwner() throws {
    let folder = try TemporaryDirectory()
    let file = folder.file("tokens.env")
    try "THEIRS=1\n".write(toFile: file, atomically: true, encoding: .utf8)
    try #require(chown(file, 4242, 4242) == 0)
    let error = #expect(throws: AccountsError.self) {
      try EnvFile.write(variable: "T", value: "tok", expiresAt: nil, to: file)
    }
    #expect(error?.message.contains("a file of another user (uid 4242; you are uid 0)") == true)
    var info = stat()
    #expect(stat(file, &info) == 0 && info.st_uid == 4242)
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "THEIRS=1\n")
  }

  @Test func refusesAVariableNameAShellCannotUse() {
    #expect(throws: AccountsError.self) {
      try EnvFile.write(variable: "1BAD", value: "x", expiresAt: nil, to: "/tmp/never-written.env")
    }
    #expect(EnvFile.isValidVariableName("_OK_1"))
    #expect(!EnvFile.isValidVariableName("NO-DASH"))
    #expect(EnvFile.defaultVariableName(provider: "work-sso", label: nil) == "WORK_SSO_TOKEN")
    #expect(EnvFile.defaultVariableName(provider: "3d", label: "me") == "_3D_ME_TOKEN")
  }
}
