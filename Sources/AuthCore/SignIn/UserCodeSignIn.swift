import Foundation

/// A sign-in by user code, for machines without a browser: the RFC 8628 device authorization
/// grant (`flow == .device`) or Simkl's PIN flow (`flow == .pin`).
///
/// `start` asks the provider for a code and returns with it in `authorization` and in the first
/// progress value; the user enters it at `verificationURI` on any device while the attempt polls
/// (`interval`, default 5 s; `slow_down` adds 5 s for the rest of the flow). It ends with tokens,
/// `accessDenied`, `userCodeExpired` (the provider's `expired_token`, or the local deadline at
/// `expires_in` whatever the provider keeps saying), `pinCodeReplaced` (a PIN poll answered with
/// a fresh code: that code is never shown), another OAuth error, or `cancelled`. A poll that
/// gets no answer (timeout, dropped connection, 5xx, garbage) is retried with backoff and shown
/// as `SignInProgress.pollTrouble` until the provider answers again or the code expires.
public actor UserCodeSignIn: LedgeredAttempt {
  public nonisolated let flow: SignInFlow
  public nonisolated let progress: AsyncStream<SignInProgress>
  /// The provider's answer: user code, verification URI, lifetime and first interval.
  public nonisolated let authorization: DeviceAuthorizationResponse
  /// When the code expires (`expires_in` after it was issued).
  public nonisolated let deadline: Date

  private let client: ProviderClient
  var ledger: AttemptLedger
  private var polling: Task<Void, Never>?

  /// Starts a device authorization grant (RFC 8628 §3.1): `POST device_authorization_endpoint`
  /// with `client_id` and `scope`, then polls the token endpoint.
  /// Its polls carry DPoP proofs when the provider uses DPoP
  /// (`ProviderConfiguration.dpopAlgorithm()`, checked before anything is sent).
  public static func startDevice(client: ProviderClient) async throws(AuthError) -> UserCodeSignIn {
    try client.configuration.require(.device)
    _ = try client.configuration.endpoint(\.tokenEndpoint, named: "token_endpoint")
    let client = try client.resolvingDPoPForSignIn()
    let authorization = try await client.requestDeviceAuthorization()
    guard authorization.deviceCode?.isEmpty == false else {
      throw .malformedResponse("the answer has no device_code")
    }
    return await begin(.device, client: client, authorization: authorization)
  }

  /// Starts a Simkl-style PIN flow: `GET pin_endpoint`, then polls
  /// `GET pin_endpoint/{user_code}`.
  public static func startPIN(client: ProviderClient) async throws(AuthError) -> UserCodeSignIn {
    try client.configuration.require(.pin)
    // A PIN poll is a `GET` of the provider's own, which carries no proof.
    let client = client.signingProofs(with: nil)
    let authorization = try await client.requestPIN()
    return await begin(.pin, client: client, authorization: authorization)
  }

  private static func begin(
    _ flow: SignInFlow, client: ProviderClient, authorization: DeviceAuthorizationResponse
  ) async -> UserCodeSignIn {
    let deadline = await client.clock.now().addingTimeInterval(authorization.expiresIn)
    let attempt = UserCodeSignIn(
      flow: flow, client: client, authorization: authorization, deadline: deadline)
    await attempt.startPolling()
    return attempt
  }

  private init(
    flow: SignInFlow, client: ProviderClient, authorization: DeviceAuthorizationResponse,
    deadline: Date
  ) {
    self.flow = flow
    self.client = client
    self.authorization = authorization
    self.deadline = deadline
    var initial = SignInProgress(flow: flow, phase: .waitingForApproval)
    initial.deadline = deadline
    initial.userCode = authorization.userCode
    initial.verificationURI = authorization.verificationURI
    initial.verificationURIComplete = authorization.verificationURIComplete
    initial.expiresIn = authorization.expiresIn
    initial.pollInterval = authorization.interval
    (ledger, progress) = AttemptLedger.make(initial)
  }

  private func startPolling() {
    var loop = PollingLoop(
      clock: client.clock, deadline: deadline, interval: authorization.interval)
    let client = self.client
    let authorization = self.authorization
    let flow = self.flow
    polling = Task {
      let outcome: AttemptLedger.Outcome
      do throws(AuthError) {
        outcome = .success(
          try await loop.run {
            () async throws(AuthError) -> PollingLoop.Answer in
            flow == .pin
              ? try await client.pollPIN(authorization)
              : try await client.pollDeviceToken(authorization)
          } schedule: { next, interval, trouble in
            self.scheduled(next: next, interval: interval, trouble: trouble)
          })
      } catch {
        outcome = .failure(error)
      }
      self.finish(outcome)
    }
  }

  private func scheduled(next: Date?, interval: TimeInterval, trouble: PollTrouble?) {
    ledger.update {
      $0.nextPollAt = next
      $0.pollInterval = interval
      $0.pollTrouble = trouble
    }
  }

  func finish(_ outcome: AttemptLedger.Outcome) {
    guard ledger.finish(outcome) else { return }
    polling?.cancel()
  }
}
