import Accounts
import AuthCore
import Foundation

/// Work the reducer asks for: everything that touches the vault, the network, the browser or
/// the clipboard. Plain data, so reducer tests compare it; each effect knows the call that does
/// it and the action its result becomes (`perform`), and `EffectRunner` only runs it in a task,
/// off the UI thread. `redraw` stays with the loop.
///
/// A new operation is a case here with its line in `perform`, a result case in `Action`, the
/// reducer's cases for both, and the call in `AppEnvironment`.
public enum Effect: Sendable, Equatable {
  /// Find out how the vault stands (a passphrase variable may unlock it).
  case start
  /// Unlock the vault.
  case unlock(RequestID, SecretText)
  /// Create the vault with this passphrase.
  case createVault(RequestID, SecretText)
  /// Read the account list.
  case loadAccounts(RequestID)
  /// Read the provider catalog.
  case loadProviders(RequestID)
  /// Start a sign-in attempt; its progress and end come back under the same id. The account is
  /// stored only when the attempt succeeds.
  case startSignIn(RequestID, provider: String, method: SignInFlow)
  /// End a running attempt; it stores nothing.
  case cancelSignIn(RequestID)
  /// Hand a pasted redirect URL to a running browser attempt.
  case submitRedirect(RequestID, SecretText)
  /// Open a page in the browser; `userCode` is the code the page asks for, if any.
  case openBrowser(RequestID, url: String, userCode: String?)
  /// Copy text that is not secret (a URL, a user code) to the clipboard.
  case copyText(RequestID, String, what: String)
  /// Copy the account's access token (refreshed first when needed) to the clipboard.
  case copyToken(RequestID, AccountName)
  /// Refresh the account's access token now.
  case refresh(RequestID, AccountName)
  /// Revoke (where possible) and delete the account.
  case signOut(RequestID, AccountName)
  /// Write the account's access token to an env file.
  case exportEnvFile(RequestID, AccountName, path: String, variable: String)
  /// Repaint every cell (the loop does it).
  case redraw
}

extension Effect {
  /// Does the work with `environment` and returns the action its result becomes; `send` takes
  /// what an effect reports on the way (a sign-in's steps). Nil for the effects with no work
  /// of the environment's (`redraw`, `cancelSignIn`: the loop and the runner do them).
  func perform(
    with environment: any AppEnvironment, send: @escaping @Sendable (Action) -> Void
  ) async -> Action? {
    switch self {
    case .start:
      return .started(await environment.start())
    case .unlock(let id, let passphrase):
      return .unlockFinished(id, await failure(try await environment.unlock(passphrase)))
    case .createVault(let id, let passphrase):
      return .unlockFinished(id, await failure(try await environment.createVault(passphrase)))
    case .loadAccounts(let id):
      return .accountsLoaded(id, await result(try await environment.accounts()))
    case .loadProviders(let id):
      return .providersLoaded(id, await environment.providers())
    case .startSignIn(let id, let provider, let method):
      return .signInFinished(
        id,
        await result(
          try await environment.signIn(id, provider: provider, method: method) { progress in
            send(.signInProgress(id, progress))
          }))
    case .submitRedirect(let id, let url):
      return .redirectSubmitted(
        id, await failure(try await environment.submitRedirect(url, to: id)))
    case .openBrowser(let id, let url, let userCode):
      return .browserOpened(id, await environment.openBrowser(url, userCode: userCode))
    case .copyText(let id, let text, let what):
      return .copyFinished(id, await result(try await environment.copyText(text, what: what)))
    case .copyToken(let id, let account):
      return .copyFinished(id, await result(try await environment.copyToken(account)))
    case .refresh(let id, let account):
      return .refreshFinished(id, account, await result(try await environment.refresh(account)))
    case .signOut(let id, let account):
      return .signOutFinished(id, account, await result(try await environment.signOut(account)))
    case .exportEnvFile(let id, let account, let path, let variable):
      return .exportFinished(
        id,
        await result(try await environment.exportEnvFile(account, path: path, variable: variable)))
    case .cancelSignIn, .redraw:
      return nil
    }
  }

  /// The sign-in attempt whose task this effect starts (so it can be cancelled), or ends.
  var attempt: (id: RequestID, starts: Bool)? {
    switch self {
    case .startSignIn(let id, _, _): return (id, true)
    case .cancelSignIn(let id): return (id, false)
    default: return nil
    }
  }
}

/// What `body` returned, or the failure it threw.
private func result<Value>(_ body: @autoclosure () async throws(AppFailure) -> Value) async
  -> Result<
    Value, AppFailure
  >
{
  do {
    return .success(try await body())
  } catch {
    return .failure(error)
  }
}

/// The failure `body` threw, or nil when it succeeded.
private func failure(_ body: @autoclosure () async throws(AppFailure) -> Void) async -> AppFailure?
{
  do {
    try await body()
    return nil
  } catch {
    return error
  }
}
