import Crypto
import Foundation

/// One sign-in attempt: the single stateful object of a sign-in, from the first request to
/// tokens or an error. Nothing is stored; a retry is always a new attempt with fresh secrets.
///
/// `AuthorizationCodeSignIn`, `DeviceAuthorizationSignIn` and `PINSignIn` conform.
public protocol SignInAttempt: Actor {
  /// The flow this attempt runs.
  nonisolated var flow: SignInFlow { get }
  /// Every change of the attempt's state, ending after `.signedIn` or `.failed`. Meant for one
  /// reader (a UI or the `login --json` writer); values are buffered until read.
  nonisolated var progress: AsyncStream<SignInProgress> { get }
  /// The attempt's state now.
  var currentProgress: SignInProgress { get }
  /// Waits for the outcome: the tokens, or why there are none. May be called any number of
  /// times; cancelling the calling task cancels the attempt.
  func tokens() async throws(AuthError) -> TokenResponse
  /// Ends the attempt at once with `AuthError.cancelled` (a no-op once it has finished).
  nonisolated func cancel()
}

/// A started sign-in attempt, by its kind: what a caller needs beyond `SignInAttempt` (the
/// browser flow's addresses, its pasted redirect and its id_token nonce) is on the typed
/// attempt, reached by a switch rather than a downcast.
public enum StartedSignIn: Sendable {
  /// Authorization Code + PKCE through the browser.
  case browser(AuthorizationCodeSignIn)
  /// A device or PIN code the user enters elsewhere.
  case userCode(UserCodeSignIn)

  /// The attempt, whatever its kind.
  public var attempt: any SignInAttempt {
    switch self {
    case .browser(let attempt): return attempt
    case .userCode(let attempt): return attempt
    }
  }
}

extension ProviderClient {
  /// Starts a sign-in with `flow`: binds the redirect listener (browser flow) or asks the
  /// provider for a user code (device, PIN), then returns the running attempt.
  public func startSignIn(
    _ flow: SignInFlow, random: some RandomSource = SystemRandomSource()
  ) async throws(AuthError) -> StartedSignIn {
    switch flow {
    case .pkce:
      return .browser(try await AuthorizationCodeSignIn.start(client: self, random: random))
    case .device: return .userCode(try await UserCodeSignIn.startDevice(client: self))
    case .pin: return .userCode(try await UserCodeSignIn.startPIN(client: self))
    }
  }
}

/// What the attempt actors share: the outcome lives in a ledger, `finish` records it (and
/// releases what the attempt holds), and waiting and cancelling work the same way for all.
protocol LedgeredAttempt: SignInAttempt {
  var ledger: AttemptLedger { get set }
  /// Records `outcome` unless the attempt already has one, and releases its resources.
  func finish(_ outcome: AttemptLedger.Outcome) async
}

extension LedgeredAttempt {
  public var currentProgress: SignInProgress { ledger.progress }

  public func tokens() async throws(AuthError) -> TokenResponse {
    let outcome = await withTaskCancellationHandler {
      await withCheckedContinuation { ledger.wait($0) }
    } onCancel: {
      cancel()
    }
    return try outcome.get()
  }

  public nonisolated func cancel() {
    Task { await self.finish(.failure(.cancelled)) }
  }
}

/// The bookkeeping every attempt shares: the progress value and its stream, the outcome, and
/// the callers waiting for it. Owned by the attempt actor.
struct AttemptLedger {
  typealias Outcome = Result<TokenResponse, AuthError>

  private(set) var progress: SignInProgress
  private(set) var outcome: Outcome?
  private var waiters: [CheckedContinuation<Outcome, Never>] = []
  private let continuation: AsyncStream<SignInProgress>.Continuation

  /// A ledger and the stream its changes are published on; `initial` is published at once.
  static func make(_ initial: SignInProgress) -> (AttemptLedger, AsyncStream<SignInProgress>) {
    let (stream, continuation) = AsyncStream<SignInProgress>.makeStream()
    continuation.yield(initial)
    return (AttemptLedger(progress: initial, continuation: continuation), stream)
  }

  private init(progress: SignInProgress, continuation: AsyncStream<SignInProgress>.Continuation) {
    self.progress = progress
    self.continuation = continuation
  }

  var isFinished: Bool { outcome != nil }

  /// Applies `change` and publishes the result; ignored once finished.
  mutating func update(_ change: (inout SignInProgress) -> Void) {
    guard outcome == nil else { return }
    change(&progress)
    continuation.yield(progress)
  }

  /// Records the outcome, publishes the final phase, ends the stream and wakes the waiters.
  /// Returns false (and changes nothing) when an outcome was already recorded.
  @discardableResult
  mutating func finish(_ outcome: Outcome) -> Bool {
    guard self.outcome == nil else { return false }
    self.outcome = outcome
    switch outcome {
    case .success:
      progress.phase = .signedIn
      // The provider answered: whatever trouble the polls before had is over.
      progress.pollTrouble = nil
    case .failure(let error): progress.phase = .failed(error)
    }
    progress.nextPollAt = nil
    continuation.yield(progress)
    continuation.finish()
    waiters.forEach { $0.resume(returning: outcome) }
    waiters.removeAll()
    return true
  }

  /// Resumes `waiter` with the outcome now, or when there is one.
  mutating func wait(_ waiter: CheckedContinuation<Outcome, Never>) {
    if let outcome {
      waiter.resume(returning: outcome)
    } else {
      waiters.append(waiter)
    }
  }
}
