import Foundation
import Providers
import Session
import Testing
import Theme

/// What the UI starts with from the configuration folder, and the notices for what it could
/// not use.
@Suite struct InterfaceSettingsTests {
  /// A configuration folder with `settings` as `config.json` (nil: none) and `providerFiles`
  /// in `providers/`, removed after `body`.
  func withFolder(
    settings: String?, providerFiles: [String: String] = [:],
    _ body: (ConfigurationLocation) throws -> Void
  ) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "interface-settings-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let location = ConfigurationLocation(directory: folder)
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("providers"), withIntermediateDirectories: true)
    if let settings {
      try settings.write(to: location.settingsFile, atomically: true, encoding: .utf8)
    }
    for (name, text) in providerFiles {
      try text.write(
        to: folder.appendingPathComponent("providers/\(name)"), atomically: true, encoding: .utf8)
    }
    try body(location)
  }

  /// The settings of `location` with the built-in themes, colours on.
  static func settings(
    _ location: ConfigurationLocation, theme: String? = nil, readsProviderFiles: Bool = true
  ) -> InterfaceSettings {
    InterfaceSettings(
      configuration: location, themes: ThemeCatalog(), requestedTheme: theme, colorsOff: false,
      readsProviderFiles: readsProviderFiles)
  }

  @Test func withNoSettingsFileTheUIHasTheDefaultsAndNothingToSay() throws {
    try withFolder(settings: nil) { location in
      let settings = Self.settings(location)
      #expect(settings.theme.name == "default")
      #expect(settings.clipboardClearAfter == 45)
      #expect(settings.notices.isEmpty)
    }
  }

  @Test func theFilesThemeAndClipboardTimeAreUsedAndTheOptionsThemeWins() throws {
    try withFolder(settings: #"{"theme": "light", "clipboard_clear_after": 10}"#) { location in
      let fromFile = Self.settings(location)
      #expect(fromFile.theme.name == "light")
      #expect(fromFile.clipboardClearAfter == 10)
      let fromOption = Self.settings(location, theme: "high-contrast")
      #expect(fromOption.theme.name == "high-contrast")
      #expect(fromOption.notices.isEmpty)
    }
  }

  @Test func aThemeThatCannotBeUsedIsSaidAndTheDefaultDrawsInstead() throws {
    try withFolder(settings: #"{"theme": "nosuch"}"#) { location in
      let settings = Self.settings(location)
      #expect(settings.theme.name == "default")
      #expect(settings.notices.count == 1)
      let notice = try #require(settings.notices.first)
      #expect(
        notice.hasPrefix("\(ConfigurationLocation.display(location.settingsFile)): \"theme\": "))
      #expect(notice.contains("nosuch"))
    }
  }

  @Test func aProviderFileThatCannotBeReadIsSaidUnlessTheFolderIsTheDemos() throws {
    try withFolder(settings: nil, providerFiles: ["broken.json": "{ not json"]) { location in
      let user = Self.settings(location)
      #expect(user.notices.count == 1)
      #expect(user.notices.first?.contains("broken.json") == true)
      let demo = Self.settings(location, readsProviderFiles: false)
      #expect(demo.notices.isEmpty)
    }
  }

  @Test func aKeyBindingThatCannotBeUsedIsSaidWithItsFile() throws {
    try withFolder(settings: #"{"keys": {"refersh": ["r"]}}"#) { location in
      let settings = Self.settings(location)
      let problems = settings.notices + settings.keys.problems
      #expect(problems.contains { $0.contains("refersh") })
    }
  }
}
