import AuthCore
import Foundation

/// Runs effects against an `AppEnvironment` in tasks, off the UI thread, and sends each
/// result back with `send` (the loop's mailbox).
///
/// Owned and called by the loop's thread only; sign-in tasks are kept so that a cancel (Esc,
/// a countdown that ran out, quitting) cancels the attempt itself.
public final class EffectRunner {
  private let environment: any AppEnvironment
  private let send: @Sendable (Action) -> Void
  private var attempts: [RequestID: Task<Void, Never>] = [:]

  /// A runner that reports to `send`.
  public init(environment: any AppEnvironment, send: @escaping @Sendable (Action) -> Void) {
    self.environment = environment
    self.send = send
  }

  /// Starts `effect`. `redraw` is the loop's own and is ignored here.
  public func run(_ effect: Effect) {
    let environment = self.environment
    let send = self.send
    switch effect {
    case .redraw:
      return
    case .cancelSignIn(let id):
      attempts.removeValue(forKey: id)?.cancel()
      return
    case .startSignIn(let id, let provider, let method):
      attempts[id] = Task { [environment, send] in
        send(await EffectRunner.signIn(id, provider: provider, method: method, environment, send))
      }
      return
    default:
      break
    }
    Task { [environment, send] in send(await EffectRunner.perform(effect, with: environment)) }
  }

  /// Forgets attempts that ended, as their results pass by.
  public func observe(_ action: Action) {
    if case .signInFinished(let id, _) = action { attempts[id] = nil }
  }

  /// Cancels every running attempt (the UI is quitting).
  public func cancelAll() {
    for task in attempts.values { task.cancel() }
    attempts.removeAll()
  }

  /// Runs a sign-in attempt to its end.
  static func signIn(
    _ id: RequestID, provider: String, method: SignInFlow, _ environment: any AppEnvironment,
    _ send: @escaping @Sendable (Action) -> Void
  ) async -> Action {
    do {
      let account = try await environment.signIn(id, provider: provider, method: method) {
        snapshot in send(.signInProgress(id, snapshot))
      }
      return .signInFinished(id, .success(account))
    } catch {
      return .signInFinished(id, .failure(error))
    }
  }

  /// The action that reports the outcome of `effect`.
  static func perform(_ effect: Effect, with environment: any AppEnvironment) async -> Action {
    switch effect {
    case .start:
      return .started(await environment.start())
    case .unlock(let id, let passphrase):
      let outcome = await result { () async throws(AppFailure) in
        try await environment.unlock(passphrase)
      }
      return .unlockFinished(id, outcome.failure)
    case .createVault(let id, let passphrase):
      let outcome = await result { () async throws(AppFailure) in
        try await environment.createVault(passphrase)
      }
      return .unlockFinished(id, outcome.failure)
    case .loadAccounts(let id):
      return .accountsLoaded(
        id, await result { () async throws(AppFailure) in try await environment.accounts() })
    case .loadProviders(let id):
      return .providersLoaded(id, await environment.providers())
    case .submitRedirect(let id, let url):
      let outcome = await result { () async throws(AppFailure) in
        try await environment.submitRedirect(url, to: id)
      }
      return .redirectSubmitted(id, outcome.failure)
    case .openBrowser(let id, let url, let userCode):
      return .browserOpened(id, await environment.openBrowser(url, userCode: userCode))
    case .copyText(let id, let text, let what):
      return .copyFinished(
        id,
        await result { () async throws(AppFailure) in
          try await environment.copyText(text, what: what)
        })
    case .copyToken(let id, let account):
      return .copyFinished(
        id,
        await result { () async throws(AppFailure) in
          try await environment.copyToken(account)
        })
    case .refresh(let id, let account):
      return .refreshFinished(
        id, account,
        await result { () async throws(AppFailure) in
          try await environment.refresh(account)
        })
    case .signOut(let id, let account):
      return .signOutFinished(id, await environment.signOut(account))
    case .exportEnvFile(let id, let account, let path, let variable):
      return .exportFinished(
        id,
        await result { () async throws(AppFailure) in
          try await environment.exportEnvFile(account, path: path, variable: variable)
        })
    case .startSignIn(let id, _, _), .cancelSignIn(let id):
      // Handled by `run`; never reaches here.
      return .signInFinished(id, .failure(AppFailure(.cancelled, "cancelled")))
    case .redraw:
      return .tick
    }
  }

  static func result<Value>(_ body: () async throws(AppFailure) -> Value) async -> Result<
    Value, AppFailure
  > {
    do {
      return .success(try await body())
    } catch {
      return .failure(error)
    }
  }
}

extension Result where Success == Void {
  /// The failure, or nil for success.
  fileprivate var failure: Failure? {
    if case .failure(let failure) = self { return failure }
    return nil
  }
}
