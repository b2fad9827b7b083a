import Foundation
import Providers
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `GitCredentialRoute.save`, what `authtui git-credential setup` writes into config.json:
/// read back by the settings reader as written, the rest of the file kept in its place, and
/// nothing written where the file is not what it should be.
@Suite struct GitRouteSavingTests {
  let folder: TemporaryDirectory
  var location: ConfigurationLocation {
    ConfigurationLocation(directory: URL(fileURLWithPath: folder.file("config")))
  }
  var file: String { folder.file("config/config.json") }

  init() throws {
    folder = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: folder.file("config"), withIntermediateDirectories: true)
  }

  func route(_ url: String, _ account: String, username: String? = nil) throws
    -> GitCredentialRoute
  {
    GitCredentialRoute(
      url: url, prefix: try GitURLPrefix.parse(url).get(), account: account, username: username)
  }

  @Test func writesANewFileTheReaderReadsBack() throws {
    try route("https://git.example.com", "work/alice").save(in: location)
    try route("https://gitlab.com/team", "gitlab/me", username: "oauth2").save(in: location)
    var status = stat()
    #expect(stat(file, &status) == 0 && status.st_mode & 0o777 == 0o600)
    let (settings, problems) = UserSettings.load(from: location)
    #expect(problems.isEmpty)
    #expect(
      settings.gitRoutes == [
        try route("https://git.example.com", "work/alice"),
        try route("https://gitlab.com/team", "gitlab/me", username: "oauth2"),
      ])
  }

  @Test func replacesTheSameURLInItsPlaceAndKeepsEverythingElse() throws {
    try folder.write(
      #"{"theme": "light", "git": {"https://GIT.example.com:443": "old/one", "https://b.test": "b/c"}, "login_timeout": 90}"#,
      to: "config/config.json")
    try route("https://git.example.com", "work/alice").save(in: location)
    #expect(
      try String(contentsOfFile: file, encoding: .utf8) == """
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

  @Test func leavesAFileItCannotReadAsItIs() throws {
    let cases: [(String, String)] = [
      ("[1, 2]", "it is not a JSON object; fix the file (or remove it), then try again"),
      (
        #"{"git": ["https://x.test"]}"#,
        "its \"git\" is not an object of URLs to accounts; fix it, then try again"
      ),
    ]
    for (text, reason) in cases {
      try folder.write(text, to: "config/config.json")
      #expect(throws: ConfigurationWriteError(path: file, reason: reason)) {
        try route("https://git.example.com", "work/alice").save(in: location)
      }
      #expect(try String(contentsOfFile: file, encoding: .utf8) == text)
    }
    try FileManager.default.removeItem(atPath: file)
    let target = folder.file("elsewhere.json")
    try folder.write("{}", to: "elsewhere.json")
    #expect(symlink(target, file) == 0)
    #expect(throws: ConfigurationWriteError.self) {
      try route("https://git.example.com", "work/alice").save(in: location)
    }
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "{}")
  }
}
