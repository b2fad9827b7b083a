import Accounts
import AuthCore
import Crypto
import Foundation
import Providers
import Sandbox
import TestSupport
import Vault

/// A fresh vault (cheap scrypt), an in-process sandbox, and a provider catalog pointing at it
/// through the same provider files `authtui demo` writes.
struct AccountsHarness {
  let folder: TemporaryDirectory
  let sandbox: SandboxServer
  let vault: Vault
  let book: AccountBook

  static func start(loginTimeout: Int? = nil) async throws -> AccountsHarness {
    let folder = try TemporaryDirectory()
    let sandbox = try await SandboxServer.start(
      configuration: SandboxConfiguration(signingKeys: await SharedSigningKeys.keys()))
    let config = ConfigurationLocation(directory: URL(fileURLWithPath: folder.file("config")))
    try SandboxProviderFiles.write(
      to: config.providersDirectory, baseURL: sandbox.baseURL, redirectPort: 1,
      loginTimeout: loginTimeout)
    let vault = try await Vault.create(
      at: VaultLocation(path: folder.file("data/vault.db")), passphrase: Passphrase("test"),
      parameters: Scrypt.Parameters(cost: 1024, blockSize: 8, parallelism: 1))
    let book = AccountBook(
      vault: vault, catalog: ProviderCatalog.load(from: config), transport: URLSessionTransport())
    return AccountsHarness(folder: folder, sandbox: sandbox, vault: vault, book: book)
  }

  /// Signs in to `provider` through the browser flow, the person approving as `user`.
  func signIn(
    _ provider: ProviderID = "sandbox", as user: String = "alice", label: String? = nil,
    action: ScriptedBrowser.Action = .approve
  ) async throws -> AccountRecord {
    try await signedIn(provider, as: user, label: label, action: action).record
  }

  /// `signIn`, with what the sign-in says of the label.
  func signedIn(
    _ provider: ProviderID = "sandbox", as user: String = "alice", label: String? = nil,
    action: ScriptedBrowser.Action = .approve
  ) async throws -> SignedInAccount {
    let session = try await book.beginSignIn(provider: provider, flow: .pkce, label: label)
    let url = try await authorizationURL(of: session)
    let person = ScriptedBrowser(script: ScriptedBrowser.Script(action: action, username: user))
    _ = await person.visit(url)
    return try await session.finish()
  }

  func authorizationURL(of session: SignInSession) async throws -> String {
    for await progress in session.progress {
      if let url = progress.authorizationURL { return url.absoluteString }
    }
    throw HarnessError.noAuthorizationURL
  }

  /// Writes an account straight into the vault, as an older authtui (or another tool) might
  /// have: no sign-in, an access token only, the provider id and label as given.
  func store(provider: String, label: String) async throws -> AccountRecord {
    try await vault.insert(
      NewAccount(
        providerID: provider, label: label,
        tokens: TokenSet(accessToken: "stored-\(label)", obtainedAt: Date())))
  }

  func stat(_ counter: SandboxCounter) async -> Int {
    await sandbox.stats()[counter]
  }

  /// Makes the `oidc` profile's access tokens live `seconds`.
  func setAccessTokenLifetime(_ seconds: Int) async {
    var settings = await sandbox.settings(for: .oidc)
    settings.accessTokenLifetime = seconds
    await sandbox.setSettings(settings, for: .oidc)
  }

  func stop() async {
    await sandbox.stop()
  }
}

enum HarnessError: Error {
  case noAuthorizationURL
}
