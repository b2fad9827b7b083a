/// What a provider offers a sign-out, from its merged configuration and, where its file
/// leaves them to discovery, its discovery document.
public struct SignOutFacts: Sendable, Equatable {
  /// True when it has a revocation endpoint (`revocation_endpoint`, RFC 7009): the tokens
  /// are revoked there before the account is deleted.
  public var canRevoke: Bool
  /// True when it has a sign-out page (`end_session_endpoint`, OpenID Connect RP-Initiated
  /// Logout 1.0): its own browser session can be ended too.
  public var hasSignOutPage: Bool

  /// The facts of one provider.
  public init(canRevoke: Bool, hasSignOutPage: Bool) {
    self.canRevoke = canRevoke
    self.hasSignOutPage = hasSignOutPage
  }
}
