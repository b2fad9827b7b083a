import Crypto
import Foundation
import TestSupport
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// The built `authtui` binary against a running `authtui-sandbox` process, with a fresh vault
/// (cheap scrypt, made in-process; the binary uses the parameters stored in it), the sandbox's
/// provider files as the configuration, and the test browser as `BROWSER`.
struct CLIHarness {
  let folder: TemporaryDirectory
  let sandbox: BackgroundProcess
  let port: UInt16
  let redirectPort: UInt16
  let environment: [String: String]

  static func start() async throws -> CLIHarness {
    let folder = try TemporaryDirectory()
    // Simkl's and Muhajir's registrations fix the redirect port; one unlikely to be taken.
    let redirectPort = UInt16.random(in: 40000...59999)
    let sandbox = try BackgroundProcess(
      Products.sandbox,
      [
        "--quiet", "--simkl-redirect-uri", "http://127.0.0.1:\(redirectPort)/callback",
        "--write-providers", folder.file("config/providers"),
      ])
    guard let line = await sandbox.firstLine(),
      let port = line.split(separator: ":").last.flatMap({ UInt16($0) })
    else { throw HarnessFailure("authtui-sandbox did not start: \(sandbox.readStandardError())") }
    let vault = try await Vault.create(
      at: VaultLocation(path: folder.file("vault/vault.db")), passphrase: Passphrase(passphrase),
      parameters: Scrypt.Parameters(cost: 1024, blockSize: 8, parallelism: 1))
    await vault.close()
    let environment = ChildProcess.environment([
      "AUTHTUI_VAULT": folder.file("vault/vault.db"), "AUTHTUI_CONFIG_DIR": folder.file("config"),
      "AUTHTUI_PASSPHRASE": passphrase, "BROWSER": Products.testBrowser,
      "AUTHTUI_TEST_BROWSER_USER": "alice", "HOME": folder.path, "XDG_CONFIG_HOME": nil,
      "XDG_DATA_HOME": nil, "DISPLAY": nil, "WAYLAND_DISPLAY": nil, "TMUX": nil,
    ])
    return CLIHarness(
      folder: folder, sandbox: sandbox, port: port, redirectPort: redirectPort,
      environment: environment)
  }

  static let passphrase = "correct horse battery staple"

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
    else { throw HarnessFailure("list --json failed: \(result.stderr)") }
    return rows
  }

  /// Sends a JSON body to a `/_sandbox/` hook.
  @discardableResult
  func hook(_ path: String, _ json: String) async -> RawHTTPResponse {
    await RawHTTPClient.request(
      "POST", "/_sandbox/\(path)", port: port, headers: ["Content-Type: application/json"],
      body: json)
  }

  /// A counter of `/_sandbox/stats`.
  func stat(_ name: String) async -> Int {
    let response = await RawHTTPClient.request("GET", "/_sandbox/stats", port: port)
    return (response.json?[name] as? Int) ?? -1
  }

  func stop() async {
    sandbox.send(signal: SIGTERM)
    _ = await sandbox.waitForExit()
  }
}

struct HarnessFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
