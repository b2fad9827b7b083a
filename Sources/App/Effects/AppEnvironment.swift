import Accounts
import AuthCore
import Foundation

/// The world as the UI reaches it: the vault, the providers, the browser and the clipboard.
///
/// The UI never calls these on its own thread: `EffectRunner` calls them from tasks and sends
/// the results back to the loop as actions, so the screen keeps answering keys while a refresh,
/// a sign-in or a vault write is in progress. Implementations must not block the cooperative
/// thread pool (run blocking work on a thread or an actor with its own executor).
///
/// Nothing here hands the UI a token: copying and exporting happen inside the environment,
/// which reports only what it did.
public protocol AppEnvironment: Sendable {
  /// How the vault stands; tries a passphrase from `AUTHTUI_PASSPHRASE`, `_FILE` or `_COMMAND`
  /// when one is set.
  func start() async -> VaultAvailability

  /// Unlocks the vault; a wrong passphrase is `AppFailure.Kind.wrongPassphrase`.
  func unlock(_ passphrase: SecretText) async throws(AppFailure)

  /// Creates the vault with `passphrase` and opens it.
  func createVault(_ passphrase: SecretText) async throws(AppFailure)

  /// Every account in the vault, damaged ones included.
  func accounts() async throws(AppFailure) -> AccountList

  /// Every provider of the catalog, usable or not.
  func providers() async -> [ProviderSummary]

  /// Runs one sign-in attempt from start to stored account, reporting each change through
  /// `progress`. The account is stored only when the attempt succeeds; cancelling the calling
  /// task ends the attempt with nothing stored.
  func signIn(
    _ attempt: RequestID, provider: String, method: SignInFlow,
    progress: @escaping @Sendable (SignInProgress) -> Void
  ) async throws(AppFailure) -> AccountSummary

  /// Hands the redirect URL the user pasted to the running browser attempt `attempt`; a URL
  /// that is not its redirect is refused with the reason, and the attempt keeps waiting.
  func submitRedirect(_ url: SecretText, to attempt: RequestID) async throws(AppFailure)

  /// Refreshes the account's access token now (single-flight with other processes).
  func refresh(_ account: AccountName) async throws(AppFailure) -> AccountSummary

  /// Revokes the tokens where the provider can, then deletes the account (whatever the
  /// provider said); throws when the account could not be deleted.
  func signOut(_ account: AccountName) async throws(AppFailure) -> SignOutReport

  /// Writes a valid access token of `account` to the env file at `path` as `variable`.
  func exportEnvFile(_ account: AccountName, path: String, variable: String)
    async throws(AppFailure) -> ExportReport

  /// Copies a valid access token of `account` to the clipboard, to be cleared later.
  func copyToken(_ account: AccountName) async throws(AppFailure) -> CopyReport

  /// Copies text that is not secret (a URL, a user code) to the clipboard.
  func copyText(_ text: String, what: String) async throws(AppFailure) -> CopyReport

  /// Opens `url` in the user's browser without waiting for it; `userCode` is the code the page
  /// asks for, if any (the demo's own approver types it).
  func openBrowser(_ url: String, userCode: String?) async -> BrowserReport
}
