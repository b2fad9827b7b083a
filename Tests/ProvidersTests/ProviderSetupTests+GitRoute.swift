import Foundation
import Providers
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `GitCredentialRoute.save`, what `authtui git-credential setup` writes into config.json with
/// the same writer as the setup form's: read back by the settings reader as written, the rest
/// of the file kept in its place, and nothing written where the file is not what it should be.
extension ProviderSetupTests {
  var settings: String { folder.file("config/config.json") }

  func route(_ url: String, _ account: String, username: String? = nil) throws
    -> GitCredentialRoute
  {
    GitCredentialRoute(
      url: url, prefix: try GitURLPrefix.parse(url).get(), account: account, username: username)
  }

  /// config.json holding `text`.
  func writeSettings(_ text: String) throws {
    try FileManager.default.createDirectory(
      atPath: folder.file("config"), withIntermediateDirectories: true)
    try folder.write(text, to: "config/config.json")
  }

  @Test func aGitRouteGoesIntoANewConfigFileTheReaderReadsBack() throws {
    try route("https://git.example.com", "work/alice").save(in: location)
    try route("https://gitlab.com/team", "gitlab/me", username: "oauth2").save(in: location)
    #expect(mode(settings) == 0o600)
    let (read, problems) = UserSettings.load(from: location)
    #expect(problems.isEmpty)
    #expect(
      read.gitRoutes == [
        try route("https://git.example.com", "work/alice"),
        try route("https://gitlab.com/team", "gitlab/me", username: "oauth2"),
      ])
  }

  @Test func aGitRouteReplacesTheSameURLInItsPlaceAndKeepsEverythingElse() throws {
    try writeSettings(
      #"{"theme": "light", "git": {"https://GIT.example.com:443": "old/one", "https://b.test": "b/c"}, "login_timeout": 90}"#
    )
    try route("https://git.example.com", "work/alice").save(in: location)
    #expect(
      try String(contentsOfFile: settings, encoding: .utf8) == """
        {
          "theme" : "light",
          "git" : {
            "https://git.example.com" : "work/alice",
            "https://b.test" : "b/c"
          },
          "login_timeout" : 90
        }

        """)
  }

  @Test func aGitRouteLeavesAConfigFileItCannotEditAsItIs() throws {
    let cases: [(String, String)] = [
      ("[1, 2]", "it is not a JSON object; fix the file (or remove it), then try again"),
      (
        #"{"git": ["https://x.test"]}"#,
        "its \"git\" is not an object of URLs to accounts; fix it, then try again"
      ),
    ]
    for (text, reason) in cases {
      try writeSettings(text)
      let error = #expect(throws: ConfigurationWriteError.self) {
        try route("https://git.example.com", "work/alice").save(in: location)
      }
      #expect(error?.reason == reason)
      #expect(try String(contentsOfFile: settings, encoding: .utf8) == text)
    }
    try FileManager.default.removeItem(atPath: settings)
    try folder.write("{}", to: "elsewhere.json")
    #expect(symlink(folder.file("elsewhere.json"), settings) == 0)
    #expect(throws: ConfigurationWriteError.self) {
      try route("https://git.example.com", "work/alice").save(in: location)
    }
    #expect(try String(contentsOfFile: folder.file("elsewhere.json"), encoding: .utf8) == "{}")
  }
}
