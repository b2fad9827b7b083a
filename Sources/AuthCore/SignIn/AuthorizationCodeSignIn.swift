import Crypto
import Foundation

/// A browser sign-in: Authorization Code with PKCE and a loopback redirect (RFC 6749 §4.1,
/// RFC 7636, RFC 8252), or a pasted redirect URL when the browser is on another machine.
///
/// `start` makes a fresh PKCE pair, `state` and `nonce`, binds the listener on 127.0.0.1 (the
/// provider's fixed port, or one the kernel picks), and starts the countdown (the provider's
/// `login_timeout`). The attempt then waits for the first of:
/// - a redirect that passes `AuthorizationRequest.validate`: the listener closes, the code is
///   exchanged exactly once, and the browser is told the outcome;
/// - a redirect whose `error` or `iss` is refused: the attempt fails with that error;
/// - `cancel()`: `AuthError.cancelled`;
/// - the deadline: `AuthError.noAnswer` ("no answer from the provider (the sign-in may have
///   been declined)"), which is how Simkl's silent denial ends.
///
/// A redirect with the wrong `state`, or with neither code nor error, is answered 400 and the
/// wait goes on: such a request is not from this attempt's provider round trip (an old tab, or
/// a forged link), so it may neither end the attempt nor feed it a code. Other paths get 404.
public actor AuthorizationCodeSignIn: LedgeredAttempt {
  public nonisolated let flow = SignInFlow.pkce
  public nonisolated let progress: AsyncStream<SignInProgress>
  /// The authorization request: its `url` is what the browser must open.
  public nonisolated let request: AuthorizationRequest
  /// When the countdown ends.
  public nonisolated let deadline: Date

  private let client: ProviderClient
  private let listener: RedirectListener
  var ledger: AttemptLedger
  private var countdown: Task<Void, Never>?
  /// True while a redirect may still be taken; false from the first valid one, or once the
  /// attempt is ending.
  private var accepting = true
  private var ending = false

  /// Starts an attempt for `client`'s provider, with secrets from `random`. Throws when the
  /// provider does not offer the flow, lacks an endpoint, or the redirect port is taken.
  public static func start(
    client: ProviderClient, random: some RandomSource = SystemRandomSource()
  ) async throws(AuthError) -> AuthorizationCodeSignIn {
    let configuration = client.configuration
    try configuration.require(.pkce)
    _ = try configuration.endpoint(\.authorizationEndpoint, named: "authorization_endpoint")
    _ = try configuration.endpoint(\.tokenEndpoint, named: "token_endpoint")
    let listener = try RedirectListener(
      port: configuration.redirectPort, path: configuration.redirectPath)
    let request: AuthorizationRequest
    do {
      request = try AuthorizationRequest(
        configuration: configuration, redirectURI: listener.redirectURI, random: random)
    } catch {
      await listener.stop()
      throw error
    }
    let deadline = await client.clock.now().addingTimeInterval(configuration.loginTimeout)
    let attempt = AuthorizationCodeSignIn(
      client: client, request: request, listener: listener, deadline: deadline)
    await attempt.begin()
    return attempt
  }

  private init(
    client: ProviderClient, request: AuthorizationRequest, listener: RedirectListener,
    deadline: Date
  ) {
    self.client = client
    self.request = request
    self.listener = listener
    self.deadline = deadline
    var initial = SignInProgress(flow: .pkce, phase: .waitingForBrowser)
    initial.deadline = deadline
    initial.authorizationURL = request.url
    initial.redirectURI = request.redirectURI
    (ledger, progress) = AttemptLedger.make(initial)
  }

  private func begin() {
    // Reads every delivery until the listener closes, so no browser is left without a page.
    let deliveries = listener.deliveries
    Task {
      for await delivery in deliveries {
        let verdict = await self.receive(delivery.response)
        delivery.reply.resume(returning: self.page(for: verdict))
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

  /// The paste path: `pastedURL` is the address the browser ended on (when it could not reach
  /// this machine's listener, over SSH). It is checked exactly like a loopback redirect and
  /// must start with the redirect URI. Throws why it was refused: a wrong `state` or an
  /// unreadable URL leaves the attempt waiting for a better one; an `error` or `iss` refusal
  /// ends it. Returns once the code was exchanged, or at once if the attempt was already past
  /// waiting.
  public func submitRedirect(_ pastedURL: String) async throws(AuthError) {
    let response = try AuthorizationResponse(
      pastedURL: pastedURL, redirectURI: request.redirectURI)
    switch await receive(response) {
    case .signedIn, .alreadyFinished: return
    case .failed(let error), .ignored(let error): throw error
    }
  }

  private enum Verdict {
    case signedIn
    case failed(AuthError)
    case ignored(AuthError)
    case alreadyFinished
  }

  private func receive(_ response: AuthorizationResponse) async -> Verdict {
    guard accepting else { return .alreadyFinished }
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
    // From here on no other redirect gets past the check above: one code, one exchange.
    accepting = false
    ledger.update {
      $0.phase = .exchangingCode
      $0.deadline = nil
    }
    countdown?.cancel()
    listener.close()
    let outcome: AttemptLedger.Outcome
    do {
      outcome = .success(try await client.exchange(grant))
    } catch {
      outcome = .failure(error)
    }
    await finish(outcome)
    switch ledger.outcome {
    case .success: return .signedIn
    case .failure(let error): return .failed(error)
    case nil: return .alreadyFinished
    }
  }

  private func ignore(_ error: AuthError) -> Verdict {
    ledger.update {
      $0.ignoredRedirects += 1
      $0.lastIgnoredRedirect = error
    }
    return .ignored(error)
  }

  private func page(for verdict: Verdict) -> HTTPResponse {
    switch verdict {
    case .signedIn: return RedirectPages.signedIn(provider: client.configuration.name)
    case .failed(let error): return RedirectPages.failed(error)
    case .ignored(let error): return RedirectPages.ignored(error)
    case .alreadyFinished: return RedirectPages.alreadyFinished
    }
  }

  private func countdownEnded() async {
    guard accepting else { return }
    await finish(.failure(.noAnswer(waited: client.configuration.loginTimeout)))
  }

  /// Closes the listener, then publishes the outcome: when a caller learns how the attempt
  /// ended, the port is already closed. Cancelling does not interrupt an exchange already
  /// sent, but its answer is then discarded.
  func finish(_ outcome: AttemptLedger.Outcome) async {
    guard !ending else { return }
    ending = true
    accepting = false
    countdown?.cancel()
    await listener.stop()
    ledger.finish(outcome)
  }
}
