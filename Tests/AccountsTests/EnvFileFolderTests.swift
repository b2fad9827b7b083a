import Accounts
import Foundation
import TestSupport
import Testing

/// The UI's env-file form: a typed `~` and a folder that does not exist yet.
@Suite struct EnvFileFolderTests {
  @Test func aLeadingTildeIsTheHomeFolderAndNothingElseIs() {
    let environment = ["HOME": "/home/ada"]
    #expect(
      EnvFile.expandingHome("~/.config/x.env", environment: environment)
        == "/home/ada/.config/x.env")
    #expect(EnvFile.expandingHome("~", environment: environment) == "/home/ada")
    #expect(EnvFile.expandingHome("~bob/x.env", environment: environment) == "~bob/x.env")
    #expect(EnvFile.expandingHome("/tmp/~/x.env", environment: environment) == "/tmp/~/x.env")
  }

  @Test func createsTheMissingFoldersOfAFileOnlyForTheUser() throws {
    let folder = try TemporaryDirectory()
    let file = folder.file("a/b/tokens.env")
    try EnvFile.createFolder(of: file)
    let attributes = try FileManager.default.attributesOfItem(atPath: folder.file("a/b"))
    #expect((attributes[.posixPermissions] as? Int) == 0o700)
    #expect(!FileManager.default.fileExists(atPath: file))
  }

  @Test func aFolderThatCannotBeMadeSaysWhy() throws {
    let folder = try TemporaryDirectory()
    let blocker = folder.file("plain")
    try "x".write(toFile: blocker, atomically: true, encoding: .utf8)
    #expect(throws: EnvFile.FolderError.self) {
      try EnvFile.createFolder(of: blocker + "/inside/tokens.env")
    }
  }
}
