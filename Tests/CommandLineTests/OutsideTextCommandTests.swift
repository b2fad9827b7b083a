import Foundation
import TestSupport
import Testing

/// Text authtui did not write (a provider file's `name`, a provider's `scope` and
/// `error_description`) reaches the terminal without its control and direction characters:
/// they show as `\u{1B}`, and `--json` escapes them.
@Suite struct OutsideTextCommandTests {
  /// An OSC that retitles the window, a bell, and a right-to-left override.
  static let hostile = "Evil\u{1B}]0;title\u{07} \u{202E}Name"
  /// How the command line shows it.
  static let shown = #"Evil\u{1B}]0;title\u{7} \u{202E}Name"#

  /// True when `text` holds nothing a terminal acts on or reorders by.
  static func isClean(_ text: String) -> Bool {
    !text.unicodeScalars.contains { scalar in
      let value = scalar.value
      return (value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(value)
        || [0x61C, 0x200E, 0x200F].contains(value) || (0x202A...0x202E).contains(value)
        || (0x2066...0x2069).contains(value)
    }
  }

  /// The same text as a JSON string's contents, escaped as JSON writers escape it.
  static var hostileJSON: String { #"Evil\u001b]0;title\u0007 \u202eName"# }

  @Test func aProviderFilesNameIsShownWithoutItsControlsByProvidersAndListed() async throws {
    let cli = try await CLIHarness.start()
    let issuer = "http://127.0.0.1:\(cli.workspace.port)/oidc"
    try cli.folder.write(
      #"{"preset": "oidc", "id": "evil", "name": "\#(Self.hostileJSON)", "issuer": "\#(issuer)", "client_id": "x"}"#,
      to: "config/providers/evil.json")

    let table = try await cli.run(["providers"])
    #expect(table.status == 0, "\(table.stderr)")
    #expect(Self.isClean(table.stdout) && Self.isClean(table.stderr), "\(table.stdout)")
    let row = table.stdout.split(separator: "\n").first { $0.hasPrefix("evil ") } ?? ""
    #expect(row.contains(Self.shown), "\(row)")
    // The columns after the name still line up with the header's.
    let header = table.stdout.split(separator: "\n").first ?? ""
    let state = try #require(header.range(of: "STATE"))
    #expect(
      row.dropFirst(header.distance(from: header.startIndex, to: state.lowerBound))
        .hasPrefix("ready "), "\(header)\n\(row)")

    let json = try await cli.run(["providers", "--json"])
    #expect(json.status == 0)
    #expect(Self.isClean(json.stdout))
    #expect(json.stdout.contains(#""name":"\#(Self.hostileJSON)""#))
    let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
    #expect(parsed?.first { $0["id"] as? String == "evil" }?["name"] as? String == Self.hostile)
    await cli.stop()
  }

  @Test func aProvidersScopeIsListedWithoutItsControls() async throws {
    let cli = try await CLIHarness.start()
    let body =
      #"{"access_token":"hs-token","username":"alice","expires_in":3600,"scope":"login \#(Self.hostileJSON)"}"#
    let fault =
      #"{"path":"/hivesigner/api/oauth2/token","kind":"answer","status":200,"body":"\#(body.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))"}"#
    #expect(await cli.hook("fault", fault).status == 200)
    try await cli.login("hivesigner")
    let list = try await cli.run(["list"])
    #expect(list.status == 0, "\(list.stderr)")
    #expect(Self.isClean(list.stdout), "\(list.stdout)")
    #expect(list.stdout.contains("login Evil\\u{1B}]0;title\\u{7}"), "\(list.stdout)")
    let json = try await cli.run(["list", "--json"])
    #expect(Self.isClean(json.stdout))
    let rows = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
    #expect(
      rows?.first?["scopes"] as? [String] == ["login", "Evil\u{1B}]0;title\u{07}", "\u{202E}Name"])
    await cli.stop()
  }

  /// A fault for `path` answering `status` with `error` and the hostile `error_description`.
  static func refusal(_ path: String, status: Int, error: String) -> String {
    let body = #"{"error":"\#(error)","error_description":"\#(hostileJSON)"}"#
    let escaped = body.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "\"", with: "\\\"")
    return #"{"path":"\#(path)","kind":"answer","status":\#(status),"body":"\#(escaped)"}"#
  }

  @Test func aProvidersErrorDescriptionIsShownWithoutItsControls() async throws {
    let cli = try await CLIHarness.start()
    // A sign-in whose code the provider refuses to exchange: said at once, and again when the
    // wait ends (`--timeout`, the shortest) with that refusal.
    let denial = Self.refusal("/oidc/token", status: 400, error: "invalid_request")
    #expect(await cli.hook("fault", denial).status == 200)
    let login = try await cli.login("sandbox", ["--timeout", "10"], expectedStatus: 7)
    #expect(Self.isClean(login.stderr) && Self.isClean(login.stdout), "\(login.stderr)")
    #expect(login.stderr.contains("(invalid_request: \(Self.shown))"), "\(login.stderr)")

    // A refresh the provider refuses, here and through the agent and the front of `authtui`,
    // which prints the agent's message itself.
    try await cli.login("sandbox")
    let refusal = Self.refusal("/oidc/token", status: 400, error: "invalid_request")
    for agentRuns in [false, true] {
      #expect(await cli.hook("fault", refusal).status == 200)
      let agent = agentRuns ? try await AgentProcess.start(cli) : nil
      #expect(!agentRuns || agent?.firstLine != nil)
      let token = try await cli.run(["token", "sandbox/alice", "--min-valid", "100000"])
      #expect(token.status == 7, "\(token.stderr)")
      #expect(token.stdout.isEmpty)
      #expect(Self.isClean(token.stderr), "\(token.stderr)")
      #expect(token.stderr.contains("(invalid_request: \(Self.shown))"), "\(token.stderr)")
      _ = await agent?.stop()
    }
    await cli.stop()
  }
}
