import Accounts
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What an export killed between naming its new content and the rename leaves
/// (`.NAME.authtui.tmp`), and what the next export does with it.
@Suite struct EnvFileLeftoverTests {
  @Test func aWriteLeavesNothingButTheFile() throws {
    let folder = try TemporaryDirectory()
    let file = folder.file("app.env")
    try EnvFile.write(variable: "T", value: "secret", expiresAt: nil, to: file)
    try EnvFile.write(variable: "T", value: "secret 2", expiresAt: nil, to: file)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["app.env"])
  }

  @Test func theNextWriteRemovesALeftoverTemporaryFile() throws {
    let folder = try TemporaryDirectory()
    let file = folder.file("app.env")
    let leftover = folder.file(".app.env.authtui.tmp")
    #expect(
      FileManager.default.createFile(
        atPath: leftover, contents: Data("T='old secret'\n".utf8),
        attributes: [.posixPermissions: 0o600]))
    try EnvFile.write(variable: "T", value: "new", expiresAt: nil, to: file)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["app.env"])
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "T='new'\nT_EXPIRES_AT=''\n")
  }

  @Test func somethingElseAtTheTemporaryNameIsRefusedAndLeftAlone() throws {
    let folder = try TemporaryDirectory()
    let file = folder.file("app.env")
    let leftover = folder.file(".app.env.authtui.tmp")
    let elsewhere = folder.file("elsewhere")
    #expect(FileManager.default.createFile(atPath: elsewhere, contents: Data("keep".utf8)))
    try FileManager.default.createSymbolicLink(atPath: leftover, withDestinationPath: elsewhere)
    #expect(
      throws: AccountsError.envFile(
        path: file,
        reason: "\(leftover), where authtui puts the new content before renaming it over the "
          + "file, holds something authtui did not leave there (a symlink, or not a 0600 file "
          + "of yours): move it away")
    ) {
      try EnvFile.write(variable: "T", value: "secret", expiresAt: nil, to: file)
    }
    #expect(try String(contentsOfFile: elsewhere, encoding: .utf8) == "keep")
    #expect(!FileManager.default.fileExists(atPath: file))

    // A file of other permissions is not one authtui left either.
    try FileManager.default.removeItem(atPath: leftover)
    #expect(
      FileManager.default.createFile(
        atPath: leftover, contents: Data("notes".utf8), attributes: [.posixPermissions: 0o644]))
    #expect(throws: AccountsError.self) {
      try EnvFile.write(variable: "T", value: "secret", expiresAt: nil, to: file)
    }
    #expect(try String(contentsOfFile: leftover, encoding: .utf8) == "notes")
  }
}
