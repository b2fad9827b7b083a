import Crypto
import Foundation
import Sandbox
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// What a test of the built `authtui` binary needs around it: `authtui-sandbox` running, the
/// provider files pointing the presets at it, a vault with a known passphrase (cheap scrypt,
/// made in-process: the binary uses the parameters stored in the file), and the environment
/// that points `authtui` at all of it with the test browser as `BROWSER`. The command-line
/// tests and the tmux tests of the UI both stand on it.
public struct SandboxWorkspace: Sendable {
  /// The vault's passphrase.
  public static let passphrase = "correct horse battery staple"

  /// A private folder holding the vault and the configuration.
  public let folder: TemporaryDirectory
  /// The sandbox process.
  public let sandbox: RunningChild
  /// The sandbox's port on 127.0.0.1.
  public let port: UInt16
  /// The fixed redirect port Simkl's and Muhajir's registrations require.
  public let redirectPort: UInt16

  /// The vault file.
  public var vaultPath: String { folder.file("vault.db") }
  /// The configuration folder.
  public var configPath: String { folder.file("config") }

  /// Starts the sandbox, writes the provider files (`loginTimeout` seconds for browser
  /// sign-ins, when given; no client id in the files `withoutClientID` names) and creates the
  /// vault.
  public static func start(loginTimeout: Int? = nil, withoutClientID: Set<String> = [])
    async throws -> SandboxWorkspace
  {
    let folder = try TemporaryDirectory()
    guard let redirectPort = ListenAddress.freeLoopbackPort() else {
      throw WorkspaceError("no free loopback port for the redirect")
    }
    let sandbox = try RunningChild(
      Products.sandbox,
      ["--quiet", "--simkl-redirect-uri", "http://127.0.0.1:\(redirectPort)/callback"])
    // The bound only matters when the sandbox never starts; on a busy machine starting a
    // process can take well over ten seconds.
    guard let line = await sandbox.nextLine(timeout: 60), let start = line.range(of: "http://"),
      let port = line.split(separator: ":").last.flatMap({ UInt16($0) })
    else { throw WorkspaceError("authtui-sandbox did not start: \(await sandbox.standardError())") }
    try SandboxProviderFiles.write(
      to: URL(fileURLWithPath: folder.file("config/providers")),
      baseURL: String(line[start.lowerBound...]), redirectPort: redirectPort,
      loginTimeout: loginTimeout, withoutClientID: withoutClientID)
    let vault = try await Vault.create(
      at: VaultLocation(path: folder.file("vault.db")), passphrase: Passphrase(passphrase),
      parameters: Scrypt.Parameters(cost: 1 << 10, blockSize: 8, parallelism: 1))
    await vault.close()
    return SandboxWorkspace(
      folder: folder, sandbox: sandbox, port: port, redirectPort: redirectPort)
  }

  /// The socket `authtui agent` listens on for this workspace (its folder is made by the agent).
  public var agentSocketPath: String { folder.file("agent/agent.sock") }

  /// Changes to the test process's environment that point `authtui` at this workspace: its
  /// vault and configuration, its own agent socket (so no agent of the machine is asked), the
  /// test browser, no display (so no desktop clipboard tool), no passphrase variable (add one
  /// where the test wants it).
  public func environmentChanges(browserAction: String = "approve") -> [String: String?] {
    [
      "AUTHTUI_VAULT": vaultPath, "AUTHTUI_CONFIG_DIR": configPath, "HOME": folder.path,
      "XDG_CONFIG_HOME": nil, "XDG_DATA_HOME": nil, "BROWSER": Products.testBrowser,
      "AUTHTUI_TEST_BROWSER_ACTION": browserAction, "AUTHTUI_TEST_BROWSER_USER": "alice",
      "AUTHTUI_TEST_BROWSER_LOG": folder.file("browser.log"), "AUTHTUI_PASSPHRASE": nil,
      "AUTHTUI_PASSPHRASE_FILE": nil, "AUTHTUI_PASSPHRASE_COMMAND": nil, "DISPLAY": nil,
      "WAYLAND_DISPLAY": nil, "TMUX": nil, "NO_COLOR": nil, "SWIFT_BACKTRACE": "enable=no",
      "AUTHTUI_AGENT_SOCKET": agentSocketPath, "AUTHTUI_NO_AGENT": nil,
    ]
  }

  /// Sends a JSON body to a `/_sandbox/` hook.
  @discardableResult
  public func hook(_ path: String, _ json: String) async -> RawHTTPResponse {
    await RawHTTPClient.request(
      "POST", "/_sandbox/\(path)", port: port, headers: ["Content-Type: application/json"],
      body: json)
  }

  /// A counter of `/_sandbox/stats`, or -1 when it cannot be read.
  public func stat(_ name: String) async -> Int {
    let response = await RawHTTPClient.request("GET", "/_sandbox/stats", port: port)
    return (response.json?[name] as? Int) ?? -1
  }

  /// Opens the vault directly, for checks the binary does not print.
  public func withVault<Result: Sendable>(_ body: (Vault) async throws -> Result) async throws
    -> Result
  {
    let vault = try await Vault.open(at: VaultLocation(path: vaultPath))
    try await vault.unlock(with: Passphrase(Self.passphrase))
    let result = try await body(vault)
    await vault.close()
    return result
  }

  /// Stops the sandbox.
  public func stop() async {
    await sandbox.kill(SIGTERM)
    _ = await sandbox.wait(timeout: 10)
  }
}

/// The workspace could not be set up.
public struct WorkspaceError: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
