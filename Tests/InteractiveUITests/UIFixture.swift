import Crypto
import Foundation
import Sandbox
import TestSupport
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// What an end-to-end run of the UI needs: `authtui-sandbox` running, provider files pointing
/// at it, a vault with a known passphrase, and the test browser as `BROWSER`.
struct UIFixture: Sendable {
  static let passphrase = "correct horse battery"

  let folder: TemporaryDirectory
  let sandbox: BackgroundProcess
  let baseURL: String

  var vaultPath: String { folder.file("vault.db") }
  var configPath: String { folder.file("config") }

  /// Starts the sandbox, writes the provider files (with `loginTimeout` seconds for browser
  /// sign-ins) and creates the vault.
  static func start(loginTimeout: Int? = nil) async throws -> UIFixture {
    let folder = try TemporaryDirectory()
    guard let redirectPort = ListenAddress.freeLoopbackPort() else {
      throw FixtureError("no free loopback port")
    }
    let sandbox = try BackgroundProcess(
      Products.sandbox,
      ["--quiet", "--simkl-redirect-uri", "http://127.0.0.1:\(redirectPort)/callback"])
    guard let line = await sandbox.firstLine(), let start = line.range(of: "http://") else {
      throw FixtureError("authtui-sandbox did not say where it listens")
    }
    let baseURL = String(line[start.lowerBound...])
    try SandboxProviderFiles.write(
      to: URL(fileURLWithPath: folder.file("config/providers")), baseURL: baseURL,
      redirectPort: redirectPort, loginTimeout: loginTimeout)
    let vault = try await Vault.create(
      at: VaultLocation(path: folder.file("vault.db")), passphrase: Passphrase(passphrase),
      parameters: Scrypt.Parameters(cost: 1 << 10, blockSize: 8, parallelism: 1))
    await vault.close()
    return UIFixture(folder: folder, sandbox: sandbox, baseURL: baseURL)
  }

  /// The shell command that runs `authtui`, then keeps the pane so its end can be read.
  var command: String {
    "\(Products.authtui); echo authtui-exit=$?; exec sleep 600"
  }

  /// The environment of the UI: this fixture's vault and configuration, the test browser, no
  /// display (so no desktop clipboard tool), no passphrase variable.
  func environment(browserAction: String = "approve") -> [String: String?] {
    [
      "AUTHTUI_VAULT": vaultPath, "AUTHTUI_CONFIG_DIR": configPath, "HOME": folder.path,
      "BROWSER": Products.testBrowser, "AUTHTUI_TEST_BROWSER_ACTION": browserAction,
      "AUTHTUI_TEST_BROWSER_LOG": folder.file("browser.log"), "AUTHTUI_PASSPHRASE": nil,
      "AUTHTUI_PASSPHRASE_FILE": nil, "AUTHTUI_PASSPHRASE_COMMAND": nil, "DISPLAY": nil,
      "WAYLAND_DISPLAY": nil, "NO_COLOR": nil, "SWIFT_BACKTRACE": "enable=no",
    ]
  }

  /// The access token the vault holds for `provider/label`.
  func accessToken(provider: String, label: String) async throws -> String? {
    let vault = try await Vault.open(at: VaultLocation(path: vaultPath))
    try await vault.unlock(with: Passphrase(Self.passphrase))
    let record = try await vault.account(providerID: provider, label: label)
    await vault.close()
    return record?.tokens.accessToken
  }

  /// How many accounts the vault holds.
  func accountCount() async throws -> Int {
    let vault = try await Vault.open(at: VaultLocation(path: vaultPath))
    try await vault.unlock(with: Passphrase(Self.passphrase))
    let count = try await vault.listAccounts().accounts.count
    await vault.close()
    return count
  }

  func stop() async {
    sandbox.send(signal: SIGTERM)
    _ = await sandbox.waitForExit()
  }
}

struct FixtureError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

extension TmuxSession {
  /// Unlocks the vault from the unlock screen.
  func unlock() async throws {
    try await waitFor("Unlock your vault")
    try await type(UIFixture.passphrase)
    try await sendKeys("Enter")
  }

  /// Opens the sign-in, chooses the provider `rowsDown` rows below the first (the catalog is
  /// sorted by id: hivesigner, muhajir, sandbox, simkl), then its first flow (a provider with
  /// one flow has no choice to make).
  func signIn(rowsDown: Int, provider: String, choosingFlow: Bool = true) async throws {
    try await sendKeys("a")
    try await waitFor("Choose a provider")
    for _ in 0..<rowsDown { try await sendKeys("j") }
    try await sendKeys("Enter")
    guard choosingFlow else { return }
    try await waitFor("How do you want to sign in to \(provider)?")
    try await sendKeys("Enter")
  }
}
