import Providers
import Testing

/// config.json's `git` object and the route `authtui git-credential get` picks from it for
/// what git sent.
@Suite struct GitCredentialRouteTests {
  static let config = """
    {
      "git": {
        "https://git.example.com": "work/alice",
        "https://GitHub.com/myorg": "github/me",
        "https://github.com/myorg/special": {"account": "github/bot", "username": "x-access-token"},
        "https://gitlab.com:443/": {"account": "gitlab/me", "username": "oauth2"},
        "http://127.0.0.1:8080": "sandbox/alice"
      }
    }
    """

  static func request(_ lines: String) throws -> GitCredentialRequest {
    try GitCredentialRequest.parse(Array(lines.utf8))
  }

  static func routed(_ lines: String) throws -> String? {
    let (settings, problems) = UserSettings.parse(config, file: "config.json")
    #expect(problems.isEmpty)
    let request = try request(lines)
    return GitCredentialRoute.route(for: request, in: settings.gitRoutes).map {
      "\($0.account) as \($0.username(for: request))"
    }
  }

  @Test func aPathWithDotSegmentsIsServedByNoEntryWhenEntriesForItsHostHavePaths() throws {
    // The issue's URL, as git sends it (decoded), and as written by hand (encoded).
    for path in [
      "myorg/special/../../other/repo.git", "myorg/special/%2e%2e/%2e%2e/other/repo.git",
      "myorg/special/%2E%2E/%2E%2E/other/repo.git", "myorg/special/.%2e/x.git",
      "myorg/special/%2e./x.git", "myorg/./special/x.git", "myorg/special/%2E/x.git",
      "myorg/special/./x.git",
    ] {
      let lines = "protocol=https\nhost=github.com\npath=\(path)\n"
      #expect(try Self.routed(lines) == nil, "\(path)")
      let (settings, _) = UserSettings.parse(Self.config, file: "config.json")
      #expect(
        GitCredentialRoute.unresolvedPath(of: try Self.request(lines), in: settings.gitRoutes)
          == path)
    }
    // A host whose entry has no path: the path decides nothing, and is not looked at.
    #expect(
      try Self.routed("protocol=https\nhost=git.example.com\npath=a/%2e%2e/b.git\n")
        == "work/alice as alice")
    // Dots inside a segment are a name, not a segment to resolve.
    #expect(
      try Self.routed("protocol=https\nhost=github.com\npath=myorg/special/..x/.git.git\n")
        == "github/bot as x-access-token")
  }

  @Test func percentEncodedUnreservedCharactersMatchAsTheyRead() throws {
    #expect(
      try Self.routed("protocol=https\nhost=github.com\npath=my%6Frg/sp%65cial/app.git\n")
        == "github/bot as x-access-token")
    // A reserved character stays encoded: `%2F` is not a segment's end.
    #expect(
      try Self.routed("protocol=https\nhost=github.com\npath=myorg%2Fspecial/app.git\n")
        == nil)
    #expect(
      GitURLPrefix(scheme: "https", host: "h", path: "a%2/%zz%41%7e%2").segments == [
        "a%2", "%zzA~%2",
      ])
  }

  @Test func readsStringAndObjectEntriesInFileOrder() {
    let (settings, problems) = UserSettings.parse(Self.config, file: "config.json")
    #expect(problems.isEmpty)
    #expect(
      settings.gitRoutes.map(\.url) == [
        "https://git.example.com", "https://GitHub.com/myorg", "https://github.com/myorg/special",
        "https://gitlab.com:443/", "http://127.0.0.1:8080",
      ])
    #expect(settings.gitRoutes.map(\.account).first == "work/alice")
    #expect(settings.gitRoutes[2].username == "x-access-token")
    #expect(settings.gitRoutes[3].prefix.host == "gitlab.com")
  }

  @Test func theLongestPrefixWinsAndPathsMatchByWholeSegments() throws {
    #expect(try Self.routed("protocol=https\nhost=git.example.com\n") == "work/alice as alice")
    #expect(
      try Self.routed("protocol=https\nhost=github.com\npath=myorg/app.git\n")
        == "github/me as me")
    #expect(
      try Self.routed("protocol=https\nhost=github.com\npath=myorg/special.git\n")
        == "github/bot as x-access-token")
    #expect(
      try Self.routed("protocol=https\nhost=github.com\npath=myorg/special/sub.git\n")
        == "github/bot as x-access-token")
    #expect(try Self.routed("protocol=https\nhost=github.com\npath=myorgx/app.git\n") == nil)
    // Without useHttpPath git sends no path: an entry with one cannot know it serves the repo.
    #expect(try Self.routed("protocol=https\nhost=github.com\n") == nil)
  }

  @Test func schemeAndHostMustMatchExactlyBesideCaseAndTheDefaultPort() throws {
    #expect(try Self.routed("protocol=http\nhost=git.example.com\n") == nil)
    #expect(try Self.routed("protocol=https\nhost=git.example.com:8443\n") == nil)
    #expect(try Self.routed("protocol=https\nhost=sub.git.example.com\n") == nil)
    #expect(try Self.routed("protocol=https\nhost=example.com\n") == nil)
    #expect(try Self.routed("protocol=HTTPS\nhost=Git.Example.COM:443\n") == "work/alice as alice")
    #expect(try Self.routed("protocol=https\nhost=gitlab.com\n") == "gitlab/me as oauth2")
    #expect(try Self.routed("protocol=http\nhost=127.0.0.1:8080\n") == "sandbox/alice as alice")
    #expect(try Self.routed("protocol=http\nhost=127.0.0.1\n") == nil)
    #expect(try Self.routed("host=git.example.com\n") == nil)
  }

  @Test func aUsernameGitAlreadyHasIsKeptUnlessTheEntryNamesOne() throws {
    #expect(
      try Self.routed("protocol=https\nhost=git.example.com\nusername=bob\n") == "work/alice as bob"
    )
    #expect(
      try Self.routed("protocol=https\nhost=gitlab.com\nusername=bob\n") == "gitlab/me as oauth2")
  }

  @Test func readsGitsLinesUpToTheBlankOne() throws {
    let request = try Self.request(
      "capability[]=authtype\r\nprotocol=https\r\nhost=h\r\nwwwauth[]=Basic realm=\"a=b\"\r\n"
        + "wwwauth[]=Bearer\r\n\r\nhost=after-the-blank-line\n")
    #expect(request.attributes.count == 5)
    #expect(request.host == "h")
    #expect(request.value("wwwauth[]") == "Bearer")
    #expect(request.attributes[3].value == "Basic realm=\"a=b\"")
    let url = try Self.request("url=https://bob@git.example.com:8443/team/app.git\n")
    #expect(url.scheme == "https")
    #expect(url.host == "git.example.com:8443")
    #expect(url.path == "team/app.git")
    #expect(GitCredentialRequest.isComplete(Array("protocol=https\n\n".utf8)))
    #expect(GitCredentialRequest.isComplete(Array("protocol=https\r\n\r\n".utf8)))
    #expect(GitCredentialRequest.isComplete(Array("\n".utf8)))
    #expect(!GitCredentialRequest.isComplete(Array("protocol=https\nhost=h\n".utf8)))
  }

  @Test func refusesInputThatIsNotGits() {
    #expect(throws: GitCredentialInputError.notKeyValue(line: 2)) {
      try Self.request("protocol=https\nhost\n")
    }
    #expect(throws: GitCredentialInputError.notKeyValue(line: 1)) { try Self.request("=x\n") }
    #expect(throws: GitCredentialInputError.nulByte(line: 1)) { try Self.request("host=a\0b\n") }
    #expect(throws: GitCredentialInputError.tooLarge(limit: GitCredentialRequest.sizeLimit)) {
      try Self.request(String(repeating: "k=v\n", count: 20_000))
    }
    #expect(
      GitCredentialInputError.notKeyValue(line: 2).description
        == "line 2 of the input is not key=value (git-credential(1) describes the format)")
  }

  @Test func reportsEachBadEntryWithItsLineAndKeepsTheOthers() {
    let (settings, problems) = UserSettings.parse(
      """
      {"git": {
        "git.example.com": "work/alice",
        "http://git.example.com": "work/alice",
        "https://alice@git.example.com": "work/alice",
        "https://h/x?y": "work/alice",
        "https://h:99999": "work/alice",
        "https://ok.example.com": "work",
        "https://ok.example.com/a": {"acount": "work/alice"},
        "https://ok.example.com/b": {"account": "work/alice", "username": ""},
        "https://ok.example.com/c": 7,
        "https://OK.example.com:443": "work/bob",
        "https://ok.example.com/d/": "work/carol",
        "https://ok.example.com/d": "work/dan"
      }}
      """, file: "config.json")
    #expect(
      settings.gitRoutes.map(\.url) == ["https://OK.example.com:443", "https://ok.example.com/d/"])
    #expect(
      problems.map(\.description) == [
        "config.json:2: git.git.example.com: the URL is not a URL: write it with its scheme, as "
          + "git sees it (https://git.example.com)",
        "config.json:3: git.http://git.example.com: the URL uses plain http, which would send "
          + "the token unencrypted: use https (http only for 127.0.0.1, localhost and [::1])",
        "config.json:4: git.https://alice@git.example.com: the URL names a user in the URL: "
          + "give it as {\"account\": …, \"username\": …} instead",
        "config.json:5: git.https://h/x?y: the URL holds a query or fragment (? or #), which "
          + "git never sends",
        "config.json:6: git.https://h:99999: the URL has a port that is not a number from 1 "
          + "to 65535",
        "config.json:7: git.https://ok.example.com: the account \"work\" is not PROVIDER/LABEL "
          + "(work/alice, as `authtui list` shows it)",
        "config.json:8: git.https://ok.example.com/a: unknown field \"acount\" (did you mean "
          + "\"account\"?); an entry holds \"account\" and optionally \"username\"",
        "config.json:8: git.https://ok.example.com/a: needs \"account\": \"PROVIDER/LABEL\"",
        "config.json:9: git.https://ok.example.com/b: \"username\" must be a non-empty string "
          + "on one line",
        "config.json:10: git.https://ok.example.com/c: must be \"PROVIDER/LABEL\" or "
          + "{\"account\": …, \"username\": …}, not a number",
        "config.json:13: git.https://ok.example.com/d: names the same URL as "
          + "\"https://ok.example.com/d/\"; keep one",
      ])
    let (_, notAnObject) = UserSettings.parse(#"{"git": "work/alice"}"#, file: "config.json")
    #expect(
      notAnObject.map(\.description) == [
        "config.json:1: git: must be an object of URLs to accounts ({\"https://git.example.com\": "
          + "\"work/alice\"}), not a string"
      ])
  }
}
