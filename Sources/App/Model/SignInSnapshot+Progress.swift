import AuthCore

extension SignInSnapshot {
  /// What the flow screen shows of an AuthCore attempt's progress, or nil for the final
  /// `failed` step (the failure arrives as the attempt's error). `fixedRedirectPort` is the
  /// provider's registered redirect port, for the `ssh -L` hint.
  public init?(_ progress: SignInProgress, fixedRedirectPort: Int? = nil) {
    let phase: Phase
    switch progress.phase {
    case .waitingForBrowser: phase = .waitingForBrowser
    case .waitingForApproval: phase = .waitingForApproval
    case .exchangingCode, .signedIn: phase = .finishing
    case .failed: return nil
    }
    self.init(
      phase: phase, deadline: progress.deadline,
      authorizationURL: progress.authorizationURL?.absoluteString,
      fixedRedirectPort: progress.flow == .pkce ? fixedRedirectPort : nil,
      userCode: progress.userCode, verificationURI: progress.verificationURI?.absoluteString,
      verificationURIComplete: progress.verificationURIComplete?.absoluteString,
      pollInterval: progress.pollInterval, nextPollAt: progress.nextPollAt,
      pollTrouble: progress.pollTrouble?.description,
      ignoredRedirect: progress.lastIgnoredRedirect?.message,
      browserURL: progress.browserURL?.absoluteString, restarts: progress.restarts,
      notice: progress.notice.flatMap { notice in
        if case .redirectIgnored = notice { return nil }
        return notice.message
      })
  }
}
