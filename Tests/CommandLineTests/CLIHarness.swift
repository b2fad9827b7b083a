import Foundation
import TestSupport

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

  /// Runs `authtui ARGUMENTS…` with the harness environment plus `changes`.
  func run(_ arguments: [String], _ changes: [String: String?] = [:], input: String? = nil)
    async throws -> ChildProcess.Result
  {
    var environment = self.environment
    for (name, value) in changes { environment[name] = value }
    return try await ChildProcess.run(
      Products.authtui, arguments, environment: environment, input: input, timeout: 90)
  }

  /// Signs in to `provider` as `user` through the browser flow.
  @discardableResult
  func login(_ provider: String, as user: String = "alice", _ extra: [String] = [])
    async throws -> ChildProcess.Result
  {
    try await run(["login", provider] + extra, ["AUTHTUI_TEST_BROWSER_USER": user])
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

  func stop() async { await workspace.stop() }
}
