import Accounts
import Foundation
import Session
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The UI's export of a token to an env file.
@Suite struct EnvFileExportTests {
  let folder: TemporaryDirectory

  init() throws {
    folder = try TemporaryDirectory()
  }

  @Test func theFolderIsMadeAndTheFileWrittenWithMode0600() async throws {
    let path = folder.file("new/sub/app.env")
    try await EnvFileExport.write(
      token: "tok-123", expiresAt: Date(timeIntervalSince1970: 1_700_000_000),
      variable: "APP_TOKEN", path: path)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains("APP_TOKEN='tok-123'\n"))
    #expect(text.contains("APP_TOKEN_EXPIRES_AT="))
    var status = stat()
    #expect(stat(path, &status) == 0)
    #expect(status.st_mode & 0o777 == 0o600)
  }

  @Test func aFolderThatCannotBeMadeIsNamedAsTypedWithTheFix() async throws {
    try folder.write("a file", to: "blocker")
    let path = folder.file("blocker/app.env")
    do {
      try await EnvFileExport.write(
        token: "tok-123", expiresAt: nil, variable: "APP_TOKEN", path: path)
      Issue.record("a file under a file was written")
    } catch {
      guard case .envFile(let named, let reason) = error else {
        Issue.record("unexpected failure \(error)")
        return
      }
      #expect(named == path)
      #expect(reason.hasPrefix("its folder cannot be created ("))
      #expect(reason.hasSuffix("); choose another file"))
    }
  }
}
