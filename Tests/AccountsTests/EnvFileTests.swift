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
