import Foundation

/// Where a sign-in attempt stands, for a UI to draw: each change is published as a whole new
/// value on the attempt's `progress` stream, so a view only ever replaces its copy.
///
/// Holds no secret: no code, verifier, device code or token.
public struct SignInProgress: Sendable, Equatable {
  /// The step the attempt is in.
  public enum Phase: Sendable, Equatable {
    /// Browser flow: the authorization URL is ready; the loopback listener waits for the
    /// redirect, and a pasted redirect URL is accepted too.
    case waitingForBrowser
    /// Device or PIN flow: the user code is shown and the provider is being polled.
    case waitingForApproval
    /// A valid redirect arrived; the code is being exchanged.
    case exchangingCode
    /// Tokens were received; the attempt is over.
    case signedIn
    /// The attempt ended without tokens.
    case failed(AuthError)
  }

  /// Something the user should hear about while the wait goes on.
  public enum Notice: Sendable, Equatable {
    /// A redirect was refused without ending the wait (wrong `state`, unreadable).
    case redirectIgnored(AuthError)
    /// A redirect passed the `state` check but its code could not be exchanged (a forged
    /// redirect, or the provider failed); the listener keeps waiting for the real one.
    case exchangeFailed(AuthError)
    /// The one-time address was fetched twice, so someone else may have read the
    /// authorization URL: the attempt started again with a fresh `state`, PKCE pair, nonce and
    /// address (`authorizationURL` and `browserURL` are the new ones); open the browser again.
    case restarted
    /// A pushed request's reference expired and pushing it again failed (RFC 9126): the
    /// browser's page may show the provider's error; the wait goes on, and opening the browser
    /// again tries once more.
    case pushFailed(AuthError)

    /// One sentence for the user.
    public var message: String {
      switch self {
      case .redirectIgnored(let error):
        return "A redirect was refused (\(error.message)); still waiting."
      case .exchangeFailed(let error):
        return "A redirect's code could not be exchanged (\(error.message)); still waiting for "
          + "the browser's redirect."
      case .restarted:
        return "The sign-in link was opened twice, possibly by another program; started again "
          + "with a fresh link."
      case .pushFailed(let error):
        return "The sign-in request expired at the provider and could not be sent again "
          + "(\(error.message)); still waiting, and opening the browser again tries once more."
      }
    }
  }

  /// The flow this attempt runs.
  public let flow: SignInFlow
  /// The current step.
  public internal(set) var phase: Phase
  /// When the wait ends: the login timeout (browser) or `expires_in` (device, PIN).
  public internal(set) var deadline: Date?
  /// Browser flow: the authorization URL (it carries `state`, `code_challenge` and `nonce`,
  /// or only a reference to them when the request was pushed, RFC 9126). Fine on a screen or
  /// for copying; a browser is given `browserURL` instead, since other users can read a
  /// program's argv.
  public internal(set) var authorizationURL: URL?
  /// Browser flow: the one-time loopback address that redirects to `authorizationURL` once
  /// (`http://127.0.0.1:PORT/sign-in/RANDOM`): what to hand to a browser command.
  public internal(set) var browserURL: URL?
  /// Browser flow: the loopback redirect URI; a pasted URL must start with it.
  public internal(set) var redirectURI: String?
  /// Device and PIN flows: the code to enter (`user_code`, RFC 8628 §3.2).
  public internal(set) var userCode: String?
  /// Device and PIN flows: where to enter it (`verification_uri`, RFC 8628 §3.2).
  public internal(set) var verificationURI: URL?
  /// Device flow: a URL with the code filled in (`verification_uri_complete`, RFC 8628 §3.3.1).
  public internal(set) var verificationURIComplete: URL?
  /// Device and PIN flows: the code's lifetime as the provider gave it (`expires_in`).
  public internal(set) var expiresIn: TimeInterval?
  /// Device and PIN flows: seconds between polls now (`interval`, plus 5 per `slow_down`).
  public internal(set) var pollInterval: TimeInterval?
  /// Device and PIN flows: when the next poll goes out; nil when no poll is scheduled.
  public internal(set) var nextPollAt: Date?
  /// Device and PIN flows: why the latest poll got no answer (the provider unreachable, a 5xx,
  /// a garbage body), while polls are retried with backoff; nil once the provider answers.
  public internal(set) var pollTrouble: PollTrouble?
  /// Browser flow: how many redirects were refused without ending the wait (wrong `state`,
  /// unreadable), and the latest reason, for a UI to mention.
  public internal(set) var ignoredRedirects: Int
  /// The reason the latest redirect was refused.
  public internal(set) var lastIgnoredRedirect: AuthError?
  /// Browser flow: how many codes that passed the `state` check could not be exchanged.
  public internal(set) var failedExchanges: Int
  /// Browser flow: how many times the attempt started again because its one-time address was
  /// fetched twice.
  public internal(set) var restarts: Int
  /// The latest thing to tell the user about, if any.
  public internal(set) var notice: Notice?

  init(flow: SignInFlow, phase: Phase) {
    self.flow = flow
    self.phase = phase
    ignoredRedirects = 0
    failedExchanges = 0
    restarts = 0
  }

  /// True once the attempt has signed in or failed.
  public var isFinished: Bool {
    switch phase {
    case .signedIn, .failed: return true
    default: return false
    }
  }
}
