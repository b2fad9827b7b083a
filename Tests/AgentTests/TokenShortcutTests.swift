import Foundation
import Locations
import Testing

@testable import AgentProtocol

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
    #expect(shortcut.target?.method == "GET")
    #expect(shortcut.target?.url.absoluteString == "https://api.example.com/me?x=1")
    let request = shortcut.request(variable: { _ in nil }, startedAt: Date())
    guard case .proof("work/alice", 90, _, "GET", let url) = request.operation else {
      Issue.record("\(request.operation)")
      return
    }
    #expect(url.host == "api.example.com")
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

  @Test func asksForTheVaultTheFullProgramWouldOpen() {
    let variables = ["AUTHTUI_VAULT": "/a/../b/vault.db", "HOME": "/home/x"]
    let shortcut = TokenShortcut(arguments: ["token", "simkl", "--min-valid", "90"])
    let started = Date(timeIntervalSince1970: 1_712_345_678.25)
    let request = shortcut?.request(variable: { variables[$0] }, startedAt: started)
    #expect(
      request
        == AgentRequest(
          operation: .token(account: "simkl", minimumValidity: 90, startedAt: started),
          vault: VaultLocation.resolve(explicitPath: nil, environment: variables).canonicalPath))
    #expect(request?.vault == "/b/vault.db")
    let explicit = TokenShortcut(arguments: ["token", "simkl", "--vault", "/c/v.db"])
    #expect(explicit?.request(variable: { variables[$0] }, startedAt: started).vault == "/c/v.db")
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

  @Test func namesTheFolderOfAPath() {
    #expect(PathText.folder(of: "/run/user/1/authtui/agent.sock") == "/run/user/1/authtui")
    #expect(PathText.folder(of: "/agent.sock") == "/")
    #expect(PathText.folder(of: "/a/b/") == "/a")
    #expect(PathText.folder(of: "agent.sock") == ".")
  }
}
