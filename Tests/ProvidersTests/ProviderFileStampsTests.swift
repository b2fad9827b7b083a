import Foundation
import Providers
import TestSupport
import Testing

/// The stamps the agent and the UI compare to notice provider files saved, added or removed
/// by any process or editor, without reading them.
@Suite struct ProviderFileStampsTests {
  let folder: TemporaryDirectory
  let location: ConfigurationLocation

  init() throws {
    folder = try TemporaryDirectory()
    location = ConfigurationLocation(directory: URL(fileURLWithPath: folder.file("config")))
    try FileManager.default.createDirectory(
      at: location.providersDirectory, withIntermediateDirectories: true)
  }

  func write(_ name: String, _ text: String) throws {
    try Data(text.utf8).write(to: location.providersDirectory.appendingPathComponent(name))
  }

  @Test func unchangedFilesGiveEqualStamps() throws {
    try write("work.json", #"{"issuer": "https://id.example.com"}"#)
    #expect(ProviderFileStamps(of: location) == ProviderFileStamps(of: location))
  }

  @Test func anAddedChangedOrRemovedFileIsNamed() throws {
    try write("work.json", #"{"issuer": "https://id.example.com"}"#)
    try write("old.json", "{}")
    let before = ProviderFileStamps(of: location)
    try write("new.json", "{}")
    try write("work.json", #"{"issuer": "https://id.example.com", "client_id": "abc"}"#)
    try FileManager.default.removeItem(
      at: location.providersDirectory.appendingPathComponent("old.json"))
    let after = ProviderFileStamps(of: location)
    #expect(after != before)
    #expect(
      before.changes(to: after) == [
        "providers/new.json added", "providers/old.json removed", "providers/work.json changed",
      ])
  }

  @Test func hiddenAndOtherFilesDoNotCount() throws {
    let before = ProviderFileStamps(of: location)
    try write(".work.json.swp", "{}")
    try write("notes.txt", "text")
    #expect(ProviderFileStamps(of: location) == before)
  }
}
