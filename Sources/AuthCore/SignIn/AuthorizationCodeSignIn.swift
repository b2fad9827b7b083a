import Crypto
import Foundation
import Loopback

/// A browser sign-in: Authorization Code with PKCE and a loopback redirect (RFC 6749 §4.1,
/// RFC 7636, RFC 8252), or a pasted redirect URL when the browser is on another machine.
///
/// `start` makes a fresh PKCE pair, `state` and `nonce`, binds the listener on 127.0.0.1 (the
/// provider's fixed port, or one the kernel picks), and starts the countdown (the provider's
/// `login_timeout`). The browser is given a one-time address on that listener
/// (`browserAddress()`, `SignInProgress.browserURL`), never the authorization URL itself: a
/// program's argv is readable by every local user, and the URL's `state` would let one of them
/// end or hijack the sign-in. The attempt then waits for the first of:
/// - a redirect that passes `AuthorizationRequest.validate` and whose code the provider
///   exchanges: the attempt signs in and the listener closes;
/// - a redirect whose `error` or `iss` is refused: the attempt fails with that error;
/// - `cancel()`: `AuthError.cancelled`;
/// - the deadline: the latest failed exchange's error when there was one, else
///   `AuthError.noAnswer` ("no answer from the provider (the sign-in may have been
///   declined)"), which is how Simkl's silent denial ends.
///
/// Nothing another local program can send ends the wait early:
/// - a redirect with the wrong `state`, or with neither code nor error, is answered 400;
/// - a redirect with the right `state` whose code cannot be exchanged (a forged code, or the
///   provider failing) is answered "not finished", reported as `Notice.exchangeFailed`, and the
///   listener keeps waiting for the real one; a code is tried at most once;
/// - a one-time address fetched twice means someone may have read the authorization URL: the
///   attempt starts again with a fresh `state`, PKCE pair, nonce and address
///   (`Notice.restarted`), and the old ones are dead (a code being exchanged for them is
///   discarded, whatever the provider says).
/// Other paths get 404.
///
/// Pushed authorization requests (RFC 9126): when the provider uses them
/// (`ProviderConfiguration.pushedAuthorizationTarget()`), `start` pushes each request before
/// the browser is given anything, and the browser's URL carries only the reference the server
/// gave (`AuthorizationRequest.url`); a restart pushes its fresh request anew. The reference
/// lives `expires_in` seconds (often a minute), less than the countdown: `browserAddress()`
/// pushes the same request again once it has expired (or is about to), so opening the browser
/// again from authtui always works; the countdown is left as it is, since the person may still
/// be on the consent page of a request the server accepted in time. A page opened from an
/// older address after that shows the server's error; opening the browser again mends it.
///
/// DPoP (RFC 9449): the client's key signs a proof for the code exchange when the provider
/// uses DPoP (`ProviderConfiguration.dpopAlgorithm()`); otherwise the key is not used.
public actor AuthorizationCodeSignIn: LedgeredAttempt {
  public nonisolated let flow = SignInFlow.pkce
  public nonisolated let progress: AsyncStream<SignInProgress>
  /// The authorization request in force: a restart replaces it. Its `url` is what the
  /// browser must reach, through `browserAddress()`.
  public private(set) var request: AuthorizationRequest
  /// `http://127.0.0.1:PORT/PATH`, the same for every request of the attempt.
  public nonisolated let redirectURI: String
  /// When the countdown ends.
  public nonisolated let deadline: Date

  private let client: ProviderClient
  private let listener: RedirectListener
  private let random: AnyRandomSource
  var ledger: AttemptLedger
  private var countdown: Task<Void, Never>?
  /// Which request is in force: 0, then one more per restart.
  private var generation = 0
  /// True once `browserAddress()` handed out the address published for this generation.
  private var addressHandedOut = false
  /// True while a code is at the provider; other redirects wait their turn.
  private var exchanging = false
  private var exchangeWaiters: [CheckedContinuation<Void, Never>] = []
  /// Every code sent to the provider: none is sent twice.
  private var triedCodes: Set<String> = []
  private var lastExchangeFailure: AuthError?
  private var deadlinePassed = false
  private var ending = false
  /// Where requests are pushed (RFC 9126), or nil when they go through the browser whole.
  private let pushTarget: URL?
  /// True while a request is being pushed: its browser URL is not known yet.
  private var pushing = false
  private var pushWaiters: [CheckedContinuation<Void, Never>] = []
  /// How long before its reference expires a pushed request is pushed again when the browser
  /// is opened.
  static let pushMargin: TimeInterval = 2

  /// Starts an attempt for `client`'s provider, with secrets from `random`. Throws when the
  /// provider does not offer the flow, lacks an endpoint, the redirect port is taken, or its
  /// pushed authorization request or DPoP settings cannot be met (checked before the listener
  /// starts); and when the push is refused.
  public static func start(
    client: ProviderClient, random: some RandomSource = SystemRandomSource()
  ) async throws(AuthError) -> AuthorizationCodeSignIn {
    let configuration = client.configuration
    try configuration.require(.pkce)
    _ = try configuration.endpoint(\.authorizationEndpoint, named: "authorization_endpoint")
    _ = try configuration.endpoint(\.tokenEndpoint, named: "token_endpoint")
    let pushTarget = try configuration.pushedAuthorizationTarget()
    let client = try client.resolvingDPoPForSignIn()
    let listener = try RedirectListener(
      port: configuration.redirectPort, path: configuration.redirectPath)
    var request: AuthorizationRequest
    do {
      request = try AuthorizationRequest(
        configuration: configuration, redirectURI: listener.redirectURI, random: random)
      if let pushTarget {
        request = try await client.push(request, to: pushTarget)
      }
    } catch {
      await listener.stop()
      throw error
    }
    let address = await listener.oneTimeAddress(for: request.url, group: 0, random: random)
    let deadline = await client.clock.now().addingTimeInterval(configuration.loginTimeout)
    let attempt = AuthorizationCodeSignIn(
      client: client, request: request, pushTarget: pushTarget, address: address,
      listener: listener, random: AnyRandomSource(random), deadline: deadline)
    await attempt.begin()
    return attempt
  }

  private init(
    client: ProviderClient, request: AuthorizationRequest, pushTarget: URL?, address: URL,
    listener: RedirectListener, random: AnyRandomSource, deadline: Date
  ) {
    self.client = client
    self.request = request
    self.pushTarget = pushTarget
    self.listener = listener
    self.random = random
    self.deadline = deadline
    redirectURI = request.redirectURI
    var initial = SignInProgress(flow: .pkce, phase: .waitingForBrowser)
    initial.deadline = deadline
    initial.authorizationURL = request.url
    initial.browserURL = address
    initial.redirectURI = request.redirectURI
    (ledger, progress) = AttemptLedger.make(initial)
  }

  private func begin() {
    // Reads every event until the listener closes, so no browser is left without a page.
    let events = listener.events
    Task {
      for await event in events {
        switch event {
        case .redirect(let delivery):
          // Each in its own task: a redirect waiting for an exchange holds up no other event.
          Task {
            let verdict = await self.receive(delivery.response)
            delivery.reply.resume(returning: self.page(for: verdict))
          }
        case .addressFetchedAgain(let group):
          await self.restart(after: group)
        }
      }
    }
    let clock = client.clock
    let deadline = self.deadline
    countdown = Task {
      do {
        try await clock.sleep(until: deadline)
      } catch {
        return
      }
      await self.countdownEnded()
    }
  }

  /// The one-time address to give a browser now. The first call after the attempt starts (or
  /// restarts) returns `progress.browserURL`; each later call makes a fresh address for the same
  /// request, so opening the page again is not taken for someone else's fetch. A pushed request
  /// whose reference has expired (or will within `pushMargin`) is pushed again first, and the
  /// address leads to the new reference; a push that fails leaves the old one, with
  /// `Notice.pushFailed`.
  public func browserAddress() async -> URL {
    while pushing && !ending {
      await withCheckedContinuation { pushWaiters.append($0) }
    }
    await pushAgainIfExpired()
    if !addressHandedOut, let published = ledger.progress.browserURL {
      addressHandedOut = true
      return published
    }
    let group = generation
    let address = await listener.oneTimeAddress(for: request.url, group: group, random: random)
    // A restart while the address was made: that one is born dead, give the new request's.
    return group == generation ? address : await browserAddress()
  }

  /// Pushes the request in force again when its reference has expired or is about to, and
  /// publishes the new URL and address (`addressHandedOut` false, so the caller gets it).
  private func pushAgainIfExpired() async {
    guard let pushTarget, !ending, let expiresAt = request.requestURIExpiresAt else { return }
    guard await client.clock.now().addingTimeInterval(Self.pushMargin) >= expiresAt else {
      return
    }
    let group = generation
    pushing = true
    defer { pushDone() }
    let renewed: AuthorizationRequest
    do {
      renewed = try await client.push(request, to: pushTarget)
    } catch {
      ledger.update { $0.notice = .pushFailed(error) }
      return
    }
    guard group == generation, !ending else { return }
    request = renewed
    let address = await listener.oneTimeAddress(for: renewed.url, group: group, random: random)
    guard group == generation else { return }
    addressHandedOut = false
    ledger.update {
      $0.authorizationURL = renewed.url
      $0.browserURL = address
    }
  }

  /// A push is over: whoever waits for the browser URL goes on.
  private func pushDone() {
    pushing = false
    let waiters = pushWaiters
    pushWaiters.removeAll()
    waiters.forEach { $0.resume() }
  }

  /// True when `address` is one of this attempt's one-time addresses (of any generation).
  public nonisolated func isOneTimeAddress(_ address: String) -> Bool {
    guard let port = URL(string: redirectURI)?.port else { return false }
    return address.hasPrefix("http://127.0.0.1:\(port)/sign-in/")
  }

  /// The paste path: `pastedURL` is the address the browser ended on (when it could not reach
  /// this machine's listener, over SSH). It is checked exactly like a loopback redirect and
  /// must start with the redirect URI. Throws why it was refused: a wrong `state`, an
  /// unreadable URL or a code the provider would not exchange leaves the attempt waiting for a
  /// better one; an `error` or `iss` refusal ends it. Returns once the code was exchanged, or
  /// at once if the attempt was already past waiting.
  public func submitRedirect(_ pastedURL: String) async throws(AuthError) {
    let response = try AuthorizationResponse(pastedURL: pastedURL, redirectURI: redirectURI)
    switch await receive(response) {
    case .signedIn, .alreadyFinished: return
    case .failed(let error), .ignored(let error), .exchangeFailed(let error): throw error
    }
  }

  private enum Verdict {
    case signedIn
    case failed(AuthError)
    case ignored(AuthError)
    case exchangeFailed(AuthError)
    case alreadyFinished
  }

  private func receive(_ response: AuthorizationResponse) async -> Verdict {
    // One code at the provider at a time: a forged redirect that arrived first must not make
    // the real one, right behind it, be turned away.
    while exchanging && !ending {
      await withCheckedContinuation { exchangeWaiters.append($0) }
    }
    guard !ending else { return .alreadyFinished }
    let grant: AuthorizationGrant
    do {
      grant = try request.validate(response)
    } catch .stateMismatch {
      return ignore(.stateMismatch)
    } catch .malformedRedirect(let reason) {
      return ignore(.malformedRedirect(reason))
    } catch {
      await finish(.failure(error))
      return .failed(error)
    }
    // A code is never sent twice (the browser may repeat a redirect).
    guard triedCodes.insert(grant.code).inserted else {
      return ignore(.malformedRedirect("its code was already tried"))
    }
    exchanging = true
    let group = generation
    ledger.update {
      $0.phase = .exchangingCode
      $0.deadline = nil
    }
    let outcome: AttemptLedger.Outcome
    do {
      outcome = .success(try await client.exchange(grant))
    } catch {
      outcome = .failure(error)
    }
    exchanging = false
    wakeExchangeWaiters()
    if ending { return .alreadyFinished }
    if case .success = outcome, group == generation {
      await finish(outcome)
      return .signedIn
    }
    // The exchange failed, or the request it belonged to was replaced while it ran (its
    // tokens may be another person's account, obtained with a stolen `state`): wait on.
    let error: AuthError
    if case .failure(let failure) = outcome, group == generation {
      error = failure
    } else {
      error = .stateMismatch
    }
    lastExchangeFailure = error
    if deadlinePassed {
      await finish(.failure(error))
      return .failed(error)
    }
    ledger.update {
      $0.phase = .waitingForBrowser
      $0.deadline = deadline
      $0.failedExchanges += 1
      $0.notice = .exchangeFailed(error)
    }
    return .exchangeFailed(error)
  }

  private func ignore(_ error: AuthError) -> Verdict {
    ledger.update {
      $0.ignoredRedirects += 1
      $0.lastIgnoredRedirect = error
      $0.notice = .redirectIgnored(error)
    }
    return .ignored(error)
  }

  private func wakeExchangeWaiters() {
    let waiters = exchangeWaiters
    exchangeWaiters.removeAll()
    waiters.forEach { $0.resume() }
  }

  /// The one-time address of generation `group` was fetched twice: someone else may know the
  /// request's `state` and challenge, so it is dropped and a fresh one takes its place.
  private func restart(after group: Int) async {
    guard !ending, group == generation else { return }
    let fresh: AuthorizationRequest
    do {
      fresh = try AuthorizationRequest(
        configuration: client.configuration, redirectURI: redirectURI, random: random)
    } catch {
      await finish(.failure(error))
      return
    }
    // Synchronously, before any await: from here on only the fresh `state` is accepted.
    request = fresh
    generation += 1
    addressHandedOut = false
    let current = generation
    await listener.retire(group: group)
    var target = fresh
    if let pushTarget {
      // The fresh request is pushed anew: the old reference stands for the old `state`.
      pushing = true
      defer { pushDone() }
      do {
        target = try await client.push(fresh, to: pushTarget)
      } catch {
        if current == generation { await finish(.failure(error)) }
        return
      }
      guard current == generation else { return }
      request = target
    }
    let address = await listener.oneTimeAddress(
      for: target.url, group: current, random: random)
    guard current == generation else { return }
    let exchanging = self.exchanging
    ledger.update {
      $0.authorizationURL = target.url
      $0.browserURL = address
      $0.restarts += 1
      $0.notice = .restarted
      if !exchanging { $0.phase = .waitingForBrowser }
    }
  }

  private func page(for verdict: Verdict) -> HTTPResponse {
    switch verdict {
    case .signedIn: return RedirectPages.signedIn(provider: client.configuration.name)
    case .failed(let error): return RedirectPages.failed(error)
    case .ignored(let error): return RedirectPages.ignored(error)
    case .exchangeFailed(let error): return RedirectPages.exchangeFailed(error)
    case .alreadyFinished: return RedirectPages.alreadyFinished
    }
  }

  private func countdownEnded() async {
    deadlinePassed = true
    // A code at the provider decides for itself (see `receive`).
    guard !ending, !exchanging else { return }
    await finish(
      .failure(lastExchangeFailure ?? .noAnswer(waited: client.configuration.loginTimeout)))
  }

  /// Closes the listener, then publishes the outcome: when a caller learns how the attempt
  /// ended, the port is already closed. Cancelling does not interrupt an exchange already
  /// sent, but its answer is then discarded.
  func finish(_ outcome: AttemptLedger.Outcome) async {
    guard !ending else { return }
    ending = true
    countdown?.cancel()
    wakeExchangeWaiters()
    pushDone()
    await listener.stop()
    ledger.finish(outcome)
  }
}
