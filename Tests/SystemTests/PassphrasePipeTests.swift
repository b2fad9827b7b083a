import Foundation
import Testing
import Vault

@testable import System

#if canImport(Glibc)
  import Glibc
#endif

/// `AUTHTUI_PASSPHRASE_FILE` may name a pipe made with `mkfifo` whose writer starts after
/// authtui does: it is waited for (up to the command's deadline; a test gives a shorter one),
/// not read as empty at once.
@Suite struct PassphrasePipeTests {
  static let variable = "AUTHTUI_PASSPHRASE_FILE"

  /// A new named pipe in a folder of its own, and the folder to remove.
  static func namedPipe() throws -> (path: String, folder: URL) {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("authtui-fifo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("passphrase").path
    #expect(mkfifo(path, 0o600) == 0)
    return (path, folder)
  }

  static func source(_ path: String, deadline: Duration) -> PassphraseSource {
    PassphraseSource(
      variable: "AUTHTUI_PASSPHRASE", environment: [variable: path], commandDeadline: deadline)
  }

  @Test func aPipeNoProgramWritesToIsNamedAsSuchOnceItsDeadlinePasses() async throws {
    let (path, folder) = try Self.namedPipe()
    defer { try? FileManager.default.removeItem(at: folder) }
    await #expect(
      throws: PassphraseError.unreadableFile(
        .file(variable: Self.variable, path: path),
        reason: "it is a named pipe that no program wrote to within 1s (start the program "
          + "that writes it first)")
    ) {
      _ = try await Self.source(path, deadline: .seconds(1)).read(prompt: "unused")
    }
  }

  @Test func aPipeIsReadFromItsWriterWhenever() async throws {
    let (path, folder) = try Self.namedPipe()
    defer { try? FileManager.default.removeItem(at: folder) }
    // The writer's open waits for the reader, and the reader waits for the writer: whichever
    // comes first, the line arrives.
    let writer = Thread {
      let fd = open(path, O_WRONLY)
      guard fd >= 0 else { return }
      let line = Array("through the pipe\n".utf8)
      _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      close(fd)
    }
    writer.start()
    let read = try await Self.source(path, deadline: .seconds(600)).read(prompt: "unused")
    #expect(read.matches(Passphrase("through the pipe")))
  }
}
