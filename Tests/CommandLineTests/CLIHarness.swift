import Foundation
import TestSupport
import Testing

/// The built `authtui` binary run as scripts run it, against a `SandboxWorkspace`, with the
/// passphrase in `AUTHTUI_PASSPHRASE`.
struct CLIHarness {
  let workspace: SandboxWorkspace
  let environment: [String: String]

  var folder: TemporaryDirectory { workspace.folder }

  static func start() async throws -> CLIHarness {
    let workspace = try await SandboxWorkspace.start()
    var changes = workspace.environmentChanges()
    changes["AUTHTUI_PASSPHRASE"] = SandboxWorkspace.passphrase
    return CLIHarness(workspace: workspace, environment: ChildProcess.environment(changes))
  }

  /// Runs `authtui ARGUMENTS…` (or another `executable`) with the harness environment plus
  /// `changes`, its standard output going to `output`.
  func run(
    _ arguments: [String], _ changes: [String: String?] = [:], input: String? = nil,
    output: ChildProcess.Output = .captured, executable: String = Products.authtui
  ) async throws -> ChildProcess.Result {
    var environment = self.environment
    for (name, value) in changes { environment[name] = value }
    return try await ChildProcess.run(
      executable, arguments, environment: environment, input: input, output: output,
      timeout: 90)
  }

  /// Runs `authtui ARGUMENTS…` `count` times at once, the `index`th with `changes(index)`.
  func runAtOnce(
    _ count: Int, _ arguments: [String], changes: @escaping @Sendable (Int) -> [String: String?]
  ) async throws -> [ChildProcess.Result] {
    try await withThrowingTaskGroup(of: ChildProcess.Result.self) { group in
      for index in 0..<count {
        group.addTask { try await run(arguments, changes(index)) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
  }

  /// Signs in to `sandbox` with a token that has 30 s left, under `token`'s default 60, while
  /// refreshed tokens last an hour: a process that asks late is satisfied by the first
  /// refresh instead of refreshing again.
  func signInWithATokenRunningLow() async throws {
    await hook("settings", #"{"profile": "oidc", "access_token_lifetime": 30}"#)
    try await login("sandbox")
    await hook("settings", #"{"profile": "oidc", "access_token_lifetime": 3600}"#)
  }

  /// Expects that every one of `outputs` printed the same token, and that the sandbox saw
  /// exactly one refresh and no refresh-token reuse.
  func expectOneSharedRefresh(
    _ outputs: [ChildProcess.Result], sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    #expect(
      outputs.allSatisfy { $0.status == 0 }, "\(outputs.map(\.stderr).filter { !$0.isEmpty })",
      sourceLocation: sourceLocation)
    #expect(Set(outputs.map(\.stdout)).count == 1, sourceLocation: sourceLocation)
    #expect(outputs.first?.stdout.count ?? 0 > 10, sourceLocation: sourceLocation)
    #expect(await stat("refreshes") == 1, sourceLocation: sourceLocation)
    #expect(await stat("reuse_detections") == 0, sourceLocation: sourceLocation)
  }

  /// Signs in to `provider` as `user` through the browser flow, and records an issue naming
  /// what login printed when it does not end with `expectedStatus`: a sign-in that failed
  /// quietly would otherwise surface later as a puzzling "no account".
  @discardableResult
  func login(
    _ provider: String, as user: String = "alice", _ extra: [String] = [],
    expectedStatus: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> ChildProcess.Result {
    let result = try await run(["login", provider] + extra, ["AUTHTUI_TEST_BROWSER_USER": user])
    #expect(
      result.status == expectedStatus,
      "login \(provider) as \(user) ended with \(result.status): \(result.stderr)",
      sourceLocation: sourceLocation)
    return result
  }

  /// `list --json`, parsed.
  func accounts() async throws -> [[String: Any]] {
    let result = try await run(["list", "--json"])
    guard result.status == 0,
      let rows = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        as? [[String: Any]]
    else { throw WorkspaceError("list --json failed: \(result.stderr)") }
    return rows
  }

  @discardableResult
  func hook(_ path: String, _ json: String) async -> RawHTTPResponse {
    await workspace.hook(path, json)
  }

  func stat(_ name: String) async -> Int { await workspace.stat(name) }

  /// The harness environment as changes, for a program started another way (`TmuxSession`).
  var environmentChanges: [String: String?] {
    var changes: [String: String?] = [:]
    for (name, value) in environment { changes[name] = value }
    return changes
  }

  func stop() async { await workspace.stop() }
}
