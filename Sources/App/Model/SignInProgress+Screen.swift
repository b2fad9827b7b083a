import AuthCore

/// What the flow screen reads of a running attempt's progress, in the words and addresses it
/// shows.
extension SignInProgress {
  /// The page to open in a browser: the one-time address of the authorization URL, or the
  /// verification page (with the code filled in when the provider offers that).
  public var pageToOpen: String? {
    (browserURL ?? authorizationURL ?? verificationURIComplete ?? verificationURI)?.absoluteString
  }

  /// The page to copy: the authorization URL itself (not its one-time address), or the
  /// verification page.
  public var pageToCopy: String? { (authorizationURL ?? verificationURI)?.absoluteString }

  /// True once a redirect or an approval arrived and the attempt is storing the account.
  public var isFinishing: Bool {
    switch phase {
    case .exchangingCode, .signedIn: return true
    case .waitingForBrowser, .waitingForApproval, .failed: return false
    }
  }

  /// The latest event worth a warning line while the wait goes on: a notice (a restart, a code
  /// the provider would not exchange), else why the latest redirect was refused.
  public var warning: String? {
    switch notice {
    case .some(.redirectIgnored), nil: return lastIgnoredRedirect?.message
    case .some(let notice): return notice.message
    }
  }
}
