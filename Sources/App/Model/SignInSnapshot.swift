import Foundation

/// Where a running sign-in stands, as the environment reports it (each report replaces the
/// previous one). Holds no secret: no authorization code, verifier, device code or token.
public struct SignInSnapshot: Sendable, Equatable {
  /// The step the attempt is in.
  public enum Phase: Sendable, Equatable {
    /// The attempt is being set up (listener, device authorization request, discovery).
    case starting
    /// Browser flow: waiting for the redirect (or a pasted redirect URL).
    case waitingForBrowser
    /// Device and PIN flows: the code is shown and the provider is being polled.
    case waitingForApproval
    /// The code is being exchanged, the identity read and the account stored.
    case finishing
  }

  /// The step the attempt is in.
  public var phase: Phase
  /// When the wait ends: the login timeout (browser) or `expires_in` (device, PIN).
  public var deadline: Date?
  /// Browser flow: the authorization URL, to show and copy (it carries `state` and the PKCE
  /// challenge, so it is never put in a browser command's argv).
  public var authorizationURL: String?
  /// Browser flow: the one-time loopback address that leads the browser to `authorizationURL`
  /// once: what the browser command is given.
  public var browserURL: String?
  /// Browser flow: how many times the attempt started again with fresh secrets because its
  /// one-time address was opened twice; each restart opens the browser again.
  public var restarts: Int
  /// Browser flow: the latest event worth a line while the wait goes on (a restart, a code the
  /// provider would not exchange); a refused redirect is `ignoredRedirect`.
  public var notice: String?
  /// Browser flow: the redirect port when the provider's registration fixes it, so a user on
  /// SSH can forward it (`ssh -L PORT:127.0.0.1:PORT`).
  public var fixedRedirectPort: Int?
  /// Device and PIN flows: the code to enter (`user_code`, RFC 8628 §3.2).
  public var userCode: String?
  /// Device and PIN flows: where to enter it (`verification_uri`).
  public var verificationURI: String?
  /// Device flow: the page with the code filled in (`verification_uri_complete`).
  public var verificationURIComplete: String?
  /// Device and PIN flows: seconds between polls (`interval`, plus 5 per `slow_down`).
  public var pollInterval: TimeInterval?
  /// Device and PIN flows: when the next poll goes out.
  public var nextPollAt: Date?
  /// Device and PIN flows: why the latest poll got no answer ("HTTP 500", "no connection"),
  /// while the polls are retried; nil once the provider answers.
  public var pollTrouble: String?
  /// Browser flow: why the latest redirect was refused without ending the wait (wrong `state`,
  /// a pasted URL that is not the redirect).
  public var ignoredRedirect: String?

  /// A snapshot; every field but the phase is optional.
  public init(
    phase: Phase, deadline: Date? = nil, authorizationURL: String? = nil,
    fixedRedirectPort: Int? = nil, userCode: String? = nil, verificationURI: String? = nil,
    verificationURIComplete: String? = nil, pollInterval: TimeInterval? = nil,
    nextPollAt: Date? = nil, pollTrouble: String? = nil, ignoredRedirect: String? = nil,
    browserURL: String? = nil, restarts: Int = 0, notice: String? = nil
  ) {
    self.phase = phase
    self.deadline = deadline
    self.authorizationURL = authorizationURL
    self.fixedRedirectPort = fixedRedirectPort
    self.userCode = userCode
    self.verificationURI = verificationURI
    self.verificationURIComplete = verificationURIComplete
    self.pollInterval = pollInterval
    self.nextPollAt = nextPollAt
    self.pollTrouble = pollTrouble
    self.ignoredRedirect = ignoredRedirect
    self.browserURL = browserURL
    self.restarts = restarts
    self.notice = notice
  }

  /// The page to open in a browser: the one-time address of the authorization URL, or the
  /// verification page (with the code filled in when the provider offers that).
  public var pageToOpen: String? {
    browserURL ?? authorizationURL ?? verificationURIComplete ?? verificationURI
  }
}
