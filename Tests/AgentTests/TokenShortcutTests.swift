import Foundation
import Locations
import Testing

@testable import AgentProtocol
@testable import AgentWire

/// The command lines the front of `authtui` answers itself, and those it leaves to the full
/// program (which then parses them, and reports any mistake, as it always has).
@Suite struct TokenShortcutTests {
  @Test(
    arguments: [
      (["token", "simkl/alice"], "simkl/alice", 60, nil),
      (["token", "simkl"], "simkl", 60, nil),
      (["token", "simkl/alice", "--min-valid", "0"], "simkl/alice", 0, nil),
      (["token", "--min-valid=300", "simkl/alice"], "simkl/alice", 300, nil),
      (["token", "simkl/alice", "--vault", "/v.db"], "simkl/alice", 60, "/v.db"),
      (["token", "--vault=rel.db", "--min-valid", "31536000", "#7"], "#7", 31_536_000, "rel.db"),
    ] as [([String], String, Int, String?)])
  func recognises(_ arguments: [String], account: String, minimumValidity: Int, vault: String?)
    throws
  {
    let shortcut = try #require(TokenShortcut(arguments: arguments))
    #expect(shortcut.account == account)
    #expect(shortcut.minimumValidity == minimumValidity)
    #expect(shortcut.vault == vault)
  }

  @Test(arguments: [
    [], ["token"], ["list"], ["--vault", "/v.db", "token", "a"], ["token", "a", "b"],
    ["token", "a", "--min-valid"], ["token", "a", "--min-valid", "+5"],
    ["token", "a", "--min-valid", "1e3"], ["token", "a", "--min-valid", "31536001"],
    ["token", "a", "--min-valid", "123456789"], ["token", "a", "--min-valid", ""],
    ["token", "a", "--min-valid", "5", "--min-valid", "6"], ["token", "a", "--vault="],
    ["token", "a", "--help"], ["token", "a", "-h"], ["token", "a", "--json"], ["token", "-"],
    ["token", "--", "a"], ["token", "-a"], ["token", ""], ["token", "a", "--theme", "light"],
    ["token", "a", "-min-valid", "5"], ["token", "a", "--version"],
    // A value that could be an option is the full program's to refuse.
    ["token", "a", "--vault", "--min-valid=5"], ["token", "--vault", "--help", "a"],
    ["token", "a", "--vault", "-x"],
  ])
  func leavesToTheFullProgram(_ arguments: [String]) {
    #expect(TokenShortcut(arguments: arguments) == nil)
  }

  @Test func recognisesHeaderForAMethodAndAURLAndAsksForAProof() throws {
    let arguments = [
      "token", "work/alice", "--header", "--for", "get", "https://api.example.com/me?x=1",
      "--min-valid", "90",
    ]
    let shortcut = try #require(TokenShortcut(arguments: arguments))
    #expect(shortcut.target == .init(method: "GET", url: "https://api.example.com/me?x=1"))
    let request = try #require(
      shortcut.request(variable: { $0 == "HOME" ? "/home/x" : nil }, startedAt: 1_712_345_678.25))
    // The line the full program sends for the same command.
    let url = try #require(ProofTarget.url("https://api.example.com/me?x=1"))
    let started = Date(timeIntervalSince1970: 1_712_345_678.25)
    let full = AgentRequest(
      operation: .proof(
        account: "work/alice", minimumValidity: 90, startedAt: started, method: "GET", url: url),
      vault: "/home/x/.local/share/authtui/vault.db")
    #expect(request.line == full.line)
    #expect(TokenShortcut(arguments: ["token", "a"])?.target == nil)
  }

  @Test(arguments: [
    ["token", "a", "--header"], ["token", "a", "--for", "GET", "https://x.example/"],
    ["token", "a", "--header", "--for", "GET"],
    ["token", "a", "--header", "--for", "G1", "https://x.example/"],
    ["token", "a", "--header", "--for", "GET", "ftp://x.example/"],
    ["token", "a", "--header", "--header", "--for", "GET", "https://x.example/"],
    [
      "token", "a", "--header", "--for", "GET", "https://x.example/", "--for", "GET",
      "https://x.example/",
    ],
    ["token", "a", "--header=1", "--for", "GET", "https://x.example/"],
  ])
  func leavesHeaderFormsItCannotAnswerToTheFullProgram(_ arguments: [String]) {
    #expect(TokenShortcut(arguments: arguments) == nil)
  }

  @Test func asksForTheVaultTheFullProgramWouldOpen() throws {
    let variables = ["AUTHTUI_VAULT": "/a/../b/vault.db", "HOME": "/home/x"]
    let shortcut = try #require(TokenShortcut(arguments: ["token", "simkl", "--min-valid", "90"]))
    let started = 1_712_345_678.25
    let request = try #require(shortcut.request(variable: { variables[$0] }, startedAt: started))
    // The line the full program sends for the same command.
    let full = AgentRequest(
      operation: .token(
        account: "simkl", minimumValidity: 90, startedAt: Date(timeIntervalSince1970: started)),
      vault: VaultLocation.resolve(explicitPath: nil, environment: variables).canonicalPath)
    #expect(request.line == full.line)
    #expect(request.vault == "/b/vault.db")
    let explicit = TokenShortcut(arguments: ["token", "simkl", "--vault", "/c/v.db"])
    #expect(explicit?.request(variable: { variables[$0] }, startedAt: started)?.vault == "/c/v.db")
  }

  /// Without `HOME`, only the password database knows where the default vault is: the front,
  /// which does not read it, leaves the command to the full program.
  @Test func leavesTheDefaultVaultWithoutHomeToTheFullProgram() throws {
    let shortcut = try #require(TokenShortcut(arguments: ["token", "simkl"]))
    #expect(shortcut.request(variable: { _ in nil }, startedAt: 1) == nil)
    let data = ["XDG_DATA_HOME": "/data"]
    #expect(
      shortcut.request(variable: { data[$0] }, startedAt: 1)?.vault
        == "/data/authtui/vault.db")
    let named = try #require(TokenShortcut(arguments: ["token", "simkl", "--vault", "/v.db"]))
    #expect(named.request(variable: { _ in nil }, startedAt: 1)?.vault == "/v.db")
  }

  /// The URLs of `--for` the front sends as they are written: each one the full program reads
  /// (`ProofTarget.url`) and would send the same.
  @Test(arguments: [
    "https://api.example.com/me?x=1", "http://localhost:8080", "HTTPS://Example.COM/a/b/",
    "https://x.example/a%20b?q=%C3%A9&r=1#frag", "https://x.example/:@!$&'()*+,;=-._~",
    "https://x.example?only=query", "https://x.example#only-fragment", "https://127.0.0.1:1/",
  ])
  func sendsAPlainURLAsTheFullProgramWould(_ text: String) throws {
    #expect(ProofTarget.plainURL(text) == text)
    #expect(try #require(ProofTarget.url(text)).absoluteString == text)
  }

  /// URLs the full program may read but the front does not: the command line is its to answer.
  @Test(arguments: [
    "https://user:pass@x.example/", "https://[::1]:8443/", "https://x.example/{a}",
    "https://x.example/a%2", "https://x.example/a%zz", "https://x.example/#a#b",
    "https://x%2Eexample/", "https://x.example:/", "https://x.example:123456/",
    "https://x.example\\a", "https:/x.example/", "https://", "ftp://x.example/",
    "https://x_y.example/", "https://x.example/a|b",
  ])
  func leavesOtherURLsToTheFullProgram(_ text: String) {
    #expect(ProofTarget.plainURL(text) == nil)
    #expect(TokenShortcut(arguments: ["token", "a", "--header", "--for", "GET", text]) == nil)
  }
}

/// Paths made standard as text, as `URL.standardizedFileURL` makes them, without a URL.
@Suite struct PathTextTests {
  @Test(arguments: [
    "/", "/a", "/a/b", "/a/b/", "//a//b", "/a/./b", "/a/../b", "/../a", "/a/b/..", "/a/.",
    "/a/.hidden", "/a/..b", "/a/b.", "/a/...", "relative/x", "./x", "../x", "x/../../y",
  ])
  func standardizesAsURLDoes(_ path: String) {
    #expect(PathText.standardized(path) == URL(fileURLWithPath: path).standardizedFileURL.path)
  }

  /// A slash followed by a combining mark is one `Character`: the paths are still cut at
  /// every slash, and one that starts with such a slash is still absolute.
  @Test func readsASlashBeforeACombiningMarkAsASlash() {
    #expect(PathText.isAbsolute("/\u{349}o"))
    #expect(!PathText.isAbsolute("\u{349}/o"))
    #expect(PathText.standardized("/\u{349}o") == "/\u{349}o")
    #expect(PathText.standardized("/a/\u{349}b/../c//d") == "/a/c/d")
    #expect(PathText.standardized("/a/./\u{349}b") == "/a/\u{349}b")
    #expect(PathText.folder(of: "/tmp/x/\u{349}y") == "/tmp/x")
    #expect(PathText.folder(of: "/\u{349}y/") == "/")
    #expect(PathText.chain(to: "/a//\u{349}b/c") == ["/a", "/a/\u{349}b", "/a/\u{349}b/c"])
    let location = VaultLocation.resolve(
      explicitPath: nil, variable: { $0 == "XDG_DATA_HOME" ? "/\u{349}d" : nil },
      homeFolder: { nil })
    #expect(location?.path == "/\u{349}d/authtui/vault.db")
  }

  @Test func namesTheFolderOfAPath() {
    #expect(PathText.folder(of: "/run/user/1/authtui/agent.sock") == "/run/user/1/authtui")
    #expect(PathText.folder(of: "/agent.sock") == "/")
    #expect(PathText.folder(of: "/a/b/") == "/a")
    #expect(PathText.folder(of: "agent.sock") == ".")
  }
}
