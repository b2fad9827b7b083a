import Foundation
import Testing

@testable import AuthCore

/// The folders Foundation makes while a session is configured: which are taken as made by it
/// (absent before), and so removed again when empty.
@Suite struct SessionConfigurationTests {
  @Test func aFolderAndTheParentsNotThereYetAreAbsentUpToTheFirstThatIs() throws {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("authtui-session-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(
      atPath: root + "/cache", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: root) }
    let absent = SessionConfiguration.absentFolders([
      root + "/cache/org.swift.foundation.URLCache/authtui-core", root + "/share/bin",
      root + "/cache",
    ])
    #expect(
      absent == [
        root + "/cache/org.swift.foundation.URLCache/authtui-core",
        root + "/cache/org.swift.foundation.URLCache", root + "/share/bin", root + "/share",
      ])
  }

  @Test func theFoldersAreTheCacheAndTheCookieFolderOfThisProcess() {
    let folders = SessionConfiguration.foldersFoundationMakes(processName: "authtui-core")
    #expect(folders.count == 2)
    #expect(folders.first?.hasSuffix("/org.swift.foundation.URLCache/authtui-core") == true)
    let bundleFolder = Bundle.main.bundleURL.deletingPathExtension().lastPathComponent
    #expect(folders.last?.hasSuffix("/" + bundleFolder) == true)
  }
}
