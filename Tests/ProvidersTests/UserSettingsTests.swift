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

  @Test func unlockOnceIsOffUnlessTheAgentObjectTurnsItOn() {
    let (plain, _) = UserSettings.parse(#"{"theme": "light"}"#, file: "config.json")
    #expect(plain.agentUnlockOnce == false)
    #expect(plain.agentIdleTimeout == nil)
    let (on, problems) = UserSettings.parse(
      #"{"agent": {"unlock_once": true, "idle_timeout": 600}}"#, file: "config.json")
    #expect(problems.isEmpty)
    #expect(on.agentUnlockOnce)
    #expect(on.agentIdleTimeout == 600)
    // As --idle-timeout takes it: a bare number (in a string too) is seconds.
    for (written, seconds) in [("\"90m\"", 5400), ("\"8h\"", 28_800), ("\"600\"", 600), ("0", 0)] {
      let (read, problems) = UserSettings.parse(
        #"{"agent": {"idle_timeout": \#(written)}}"#, file: "config.json")
      #expect(problems.isEmpty, "\(written)")
      #expect(read.agentIdleTimeout == seconds, "\(written)")
    }
  }

  @Test func aBadIdleTimeoutIsNamedWithItsFileLineAndTheFormsItTakes() {
    let forms =
      "must be a duration such as 90s, 15m, 8h or 2d (a bare number is seconds), from 0 (never) "
      + "to 365d, not "
    for (written, shown) in [
      ("\"90 minutes\"", "\"90 minutes\""), ("\"1.5h\"", "\"1.5h\""), ("2.5", "2.5"),
      ("\"400d\"", "\"400d\""), ("true", "true or false"),
    ] {
      let (settings, problems) = UserSettings.parse(
        "{\"agent\":\n {\"idle_timeout\": \(written)}}", file: "config.json")
      #expect(settings.agentIdleTimeout == nil)
      #expect(
        problems.map(\.description) == ["config.json:2: agent.idle_timeout: \(forms)\(shown)"])
    }
  }

  @Test func aWrongAgentFieldIsReportedWithItsLine() {
    let (settings, problems) = UserSettings.parse(
      "{\n\"agent\": {\"unlock_once\": \"yes\",\n \"idle_timout\": 5, \"idle_timeout\": -1}}",
      file: "config.json")
    #expect(settings.agentUnlockOnce == false)
    #expect(settings.agentIdleTimeout == nil)
    #expect(
      problems.map(\.description) == [
        "config.json:2: agent.unlock_once: must be true or false, not a string",
        "config.json:3: agent.idle_timout: unknown field (did you mean \"idle_timeout\"?); the "
          + "fields are listed in docs/configuration.md under \"config.json\"",
        "config.json:3: agent.idle_timeout: must be a duration such as 90s, 15m, 8h or 2d (a "
          + "bare number is seconds), from 0 (never) to 365d, not -1",
      ])
    let (_, notAnObject) = UserSettings.parse(#"{"agent": true}"#, file: "config.json")
    #expect(
      notAnObject.map(\.description) == [
        "config.json:1: agent: must be an object such as {\"unlock_once\": true}, not true or false"
      ])
  }

  @Test func keepsTheGoodFieldsWhenOneIsWrong() {
    let (settings, problems) = UserSettings.parse(
      "{ \"theme\": \"light\",\n \"login_timeout\": \"soon\", \"colour\": 1 }", file: "config.json")
    #expect(settings.theme == "light")
    #expect(
      problems.map(\.description) == [
        "config.json:2: login_timeout: must be a whole number, not a string",
        "config.json:2: colour: unknown field; the fields are listed in docs/configuration.md under \"config.json\"",
      ])
  }

  @Test func reportsBrokenJSONWithItsLine() {
    let (_, problems) = UserSettings.parse("{\n\"theme\": \"x\",\n}", file: "config.json")
    #expect(
      problems.first?.description
        == "config.json:3: not valid JSON: trailing comma before '}'; remove the last comma")
  }

  @Test func aConfigurationFolderThatIsAFileIsSaidToBeOne() throws {
    let folder = try TemporaryDirectory()
    let file = folder.path + "/authtui"
    #expect(FileManager.default.createFile(atPath: file, contents: Data("{}".utf8)))
    let (settings, problems) = UserSettings.load(
      from: ConfigurationLocation(directory: URL(fileURLWithPath: file)))
    var unread = UserSettings()
    unread.agentConfirmUncertain = true
    #expect(settings == unread)
    #expect(
      problems.map(\.description) == [
        "\(file): the configuration folder is a file, not a folder, so its config.json, "
          + "providers/ and themes/ were not read; point --config or AUTHTUI_CONFIG_DIR at the "
          + "folder that holds them"
      ])
    // A folder that is not there is simply no configuration.
    let missing = ConfigurationLocation(directory: URL(fileURLWithPath: folder.path + "/none"))
    #expect(missing.folderProblem == nil)
    #expect(UserSettings.load(from: missing).1.isEmpty)
  }

  @Test func aConfigJSONThatIsAFIFOIsReportedAndNeverOpened() async throws {
    let folder = try TemporaryDirectory()
    let location = ConfigurationLocation(directory: URL(fileURLWithPath: folder.path))
    #expect(mkfifo(location.settingsFile.path, 0o600) == 0)
    let watch = try FileOpenWatch([location.settingsFile.path])
    let loaded = await finishing(within: 30) { UserSettings.load(from: location) }
    let (settings, problems) = try #require(loaded, "reading a FIFO config.json blocked")
    var unread = UserSettings()
    unread.agentConfirmUncertain = true
    #expect(settings == unread)
    #expect(
      problems.map(\.description) == [
        "\(location.settingsFile.path): is a FIFO (named pipe), not a file; authtui does not read from pipes: replace it with a regular file"
      ])
    #expect(watch.openedPaths().isEmpty)
  }
}
