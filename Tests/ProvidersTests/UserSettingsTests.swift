import Foundation
import Providers
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct UserSettingsTests {
  @Test func readsThemeTimeoutsAndKeyOverridesWithTheirLines() {
    let (settings, problems) = UserSettings.parse(
      """
      {
        "theme": "light",
        "login_timeout": 120,
        "clipboard_clear_after": 30,
        "keys": {
          "refresh": ["r", "ctrl-r"],
          "quit": "q"
        }
      }
      """, file: "config.json")
    #expect(problems.isEmpty)
    #expect(settings.theme == "light")
    #expect(settings.loginTimeout == 120)
    #expect(settings.clipboardClearAfter == 30)
    #expect(settings.keys == ["refresh": ["r", "ctrl-r"], "quit": ["q"]])
    #expect(settings.keyPositions["quit"]?.line == 7)
  }

  @Test func keepsTheGoodFieldsWhenOneIsWrong() {
    let (settings, problems) = UserSettings.parse(
      "{ \"theme\": \"light\",\n \"login_timeout\": \"soon\", \"colour\": 1 }", file: "config.json")
    #expect(settings.theme == "light")
    #expect(
      problems.map(\.description) == [
        "config.json:2: login_timeout: must be a whole number, not a string",
        "config.json:2: colour: unknown field; the fields are listed in the README under \"Configuration\"",
      ])
  }

  @Test func reportsBrokenJSONWithItsLine() {
    let (_, problems) = UserSettings.parse("{\n\"theme\": \"x\",\n}", file: "config.json")
    #expect(
      problems.first?.description
        == "config.json:3: not valid JSON: trailing comma before '}'; remove the last comma")
  }

  @Test func aConfigJSONThatIsAFIFOIsReportedAndNeverOpened() async throws {
    let folder = try TemporaryDirectory()
    let location = ConfigurationLocation(directory: URL(fileURLWithPath: folder.path))
    #expect(mkfifo(location.settingsFile.path, 0o600) == 0)
    let watch = try FileOpenWatch([location.settingsFile.path])
    let loaded = await finishing(within: 30) { UserSettings.load(from: location) }
    let (settings, problems) = try #require(loaded, "reading a FIFO config.json blocked")
    #expect(settings == UserSettings())
    #expect(
      problems.map(\.description) == [
        "\(location.settingsFile.path): is a FIFO (named pipe), not a file; authtui does not read from pipes: replace it with a regular file"
      ])
    #expect(watch.openedPaths().isEmpty)
  }
}
