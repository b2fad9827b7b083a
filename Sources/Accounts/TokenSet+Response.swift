import AuthCore
import Foundation
import Vault

extension TokenSet {
  /// What the vault keeps of a sign-in's token answer: `updated(with:)` applied to tokens that
  /// hold nothing yet but the scopes the sign-in asked for.
  init(_ response: TokenResponse, requestedScopes: [String]) {
    self = TokenSet(
      accessToken: nil, tokenType: nil, scopes: requestedScopes, obtainedAt: response.receivedAt
    )
    .updated(with: response)
  }

  /// These tokens after a token answer (a sign-in's or a refresh's), as AppAuth's
  /// `updateWithTokenResponse`: the one place the rules of merging an answer live.
  ///
  /// - The access token, type and expiry are the answer's.
  /// - A refresh token in the answer replaces the stored one (rotation); none means "keep the
  ///   one you have" (RFC 6749 §6).
  /// - Scopes are the granted ones (RFC 6749 §5.1 `scope`), or the stored ones when the
  ///   provider does not say (§3.3: then it granted what was asked, or what it granted before).
  /// - Refresh answers rarely repeat the id_token (OIDC Core §12.2): a new one replaces the
  ///   stored one, none keeps the sign-in's (for the logout hint).
  /// - A new refresh token lives as long as its answer says, or else the provider file
  ///   (`refreshTokenExpiresAt`). The one kept keeps the validity it came with (Google's
  ///   7-day refresh token counts from the sign-in, not from the last refresh), unless the
  ///   answer states its lifetime anew (`refresh_token_expires_in`), or the refresh worked
  ///   after the end it was given: that end was wrong (an app published since, a lifetime set
  ///   by mistake), and none is known any more.
  public func updated(with response: TokenResponse) -> TokenSet {
    let granted = response.scopes
    let refreshValidity: DateInterval?
    if let rotated = response.refreshToken, rotated != refreshToken {
      refreshValidity = response.refreshTokenExpiresAt.map {
        DateInterval(start: response.receivedAt, end: max($0, response.receivedAt))
      }
    } else if let stated = response.refreshTokenExpiresIn {
      let end = response.receivedAt.addingTimeInterval(stated)
      let start = min(self.refreshValidity?.start ?? response.receivedAt, response.receivedAt)
      refreshValidity = DateInterval(start: start, end: end)
    } else if let kept = self.refreshValidity, response.receivedAt >= kept.end {
      refreshValidity = nil
    } else {
      refreshValidity = self.refreshValidity
    }
    return TokenSet(
      accessToken: response.accessToken, refreshToken: response.refreshToken ?? refreshToken,
      idToken: response.idToken ?? idToken, tokenType: response.tokenType,
      scopes: granted.isEmpty ? scopes : granted, expiresAt: response.expiresAt,
      obtainedAt: response.receivedAt, refreshValidity: refreshValidity)
  }
}
