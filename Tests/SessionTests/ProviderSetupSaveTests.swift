import AuthCore
import Foundation
import Providers
import Session
import TestSupport
import Testing

/// The UI's save of a provider's setup form.
@Suite struct ProviderSetupSaveTests {
  let folder: TemporaryDirectory
  var location: ConfigurationLocation {
    ConfigurationLocation(directory: URL(fileURLWithPath: folder.file("config")))
  }

  init() throws {
    folder = try TemporaryDirectory()
  }

  @Test func theSavedClientIDIsWhatTheCatalogReadsNext() async throws {
    let failure = await ProviderSetupSave.save(
      "simkl", clientID: "my-app-id", redirectPort: 8765, clientSecret: nil, in: location)
    #expect(failure == nil)
    let entry = try #require(ProviderCatalog.load(from: location).entry("simkl"))
    #expect(entry.file.clientID == "my-app-id")
    #expect(entry.setup == nil)
  }

  @Test func aRefusedSetupComesBackAndWritesNothing() async throws {
    let failure = await ProviderSetupSave.save(
      "google", clientID: "123", redirectPort: nil, clientSecret: ClientSecret(""), in: location)
    #expect(failure == .emptyClientSecret)
    #expect(!FileManager.default.fileExists(atPath: folder.file("config/providers/google.json")))
  }
}
