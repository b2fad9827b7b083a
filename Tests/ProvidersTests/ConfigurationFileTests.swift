import Foundation
import Providers
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Reading a configuration file without trusting what is at its path.
@Suite struct ConfigurationFileTests {
  let folder: TemporaryDirectory

  init() throws {
    folder = try TemporaryDirectory()
  }

  /// What `ConfigurationFile.read` says about `name`, from a thread of its own so a read that
  /// blocks fails the test instead of hanging it.
  func refusal(_ name: String) async -> ConfigurationFileError? {
    let path = folder.file(name)
    let outcome = await finishing(within: 30) { () -> Result<String, ConfigurationFileError> in
      do throws(ConfigurationFileError) {
        return .success(try ConfigurationFile.read(path: path))
      } catch {
        return .failure(error)
      }
    }
    guard let outcome else {
      Issue.record("reading \(name) did not return within 30 s")
      return nil
    }
    guard case .failure(let error) = outcome else {
      Issue.record("\(name) was read")
      return nil
    }
    return error
  }

  @Test func neverOpensAFIFO() async throws {
    #expect(mkfifo(folder.file("pipe.json"), 0o600) == 0)
    let watch = try FileOpenWatch([folder.file("pipe.json")])
    let error = await refusal("pipe.json")
    #expect(error == .notAFile(.fifo))
    #expect(
      error?.description
        == "is a FIFO (named pipe), not a file; authtui does not read from pipes: replace it with a regular file"
    )
    #expect(watch.openedPaths().isEmpty)
  }

  @Test func namesADirectoryASymlinkLoopAndADanglingSymlinkAsSuch() async throws {
    try FileManager.default.createDirectory(
      atPath: folder.file("x.json"), withIntermediateDirectories: false)
    #expect(symlink(folder.file("loop.json"), folder.file("loop.json")) == 0)
    #expect(symlink(folder.file("gone.json"), folder.file("dangling.json")) == 0)
    #expect(await refusal("x.json")?.description.hasPrefix("is a directory, not a file") == true)
    #expect(await refusal("loop.json") == .symlinkLoop)
    #expect(
      await refusal("dangling.json")?.description
        == "is a symbolic link to \(folder.file("gone.json")), which does not exist; fix the link or remove it"
    )
    #expect(await refusal("nothing.json") == .missing)
  }

  @Test func refusesAFileOverTheSizeLimitWithoutOpeningIt() async throws {
    // A sparse gigabyte: reading it whole would take long and a gigabyte of memory.
    let path = folder.file("huge.json")
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    #expect(truncate(path, 1 << 30) == 0)
    let watch = try FileOpenWatch([path])
    let error = await refusal("huge.json")
    #expect(error == .tooLarge(size: 1 << 30, limit: 256 * 1024))
    #expect(
      error?.description
        == "is 1024.0 MiB, over the 256 KiB limit for configuration files; check that this is the right file"
    )
    #expect(watch.openedPaths().isEmpty)
  }

  @Test func readsARegularFileOrASymlinkToOneUpToTheLimit() throws {
    let text = "{\"client_id\": \"é\"}" + String(repeating: " ", count: 256 * 1024 - 19)
    try text.write(toFile: folder.file("full.json"), atomically: true, encoding: .utf8)
    #expect(symlink(folder.file("full.json"), folder.file("link.json")) == 0)
    #expect(try ConfigurationFile.read(path: folder.file("full.json")) == text)
    #expect(try ConfigurationFile.read(path: folder.file("link.json")) == text)
  }

  @Test func refusesBytesThatAreNotUTF8() throws {
    try Data([0x7B, 0xFF, 0x7D]).write(to: URL(fileURLWithPath: folder.file("latin.json")))
    #expect(throws: ConfigurationFileError.notUTF8) {
      try ConfigurationFile.read(path: folder.file("latin.json"))
    }
  }
}
