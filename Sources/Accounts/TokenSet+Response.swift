import AuthCore
import Foundation
import Vault

extension TokenSet {
  /// What the vault keeps of a token answer. Scopes are the granted ones (RFC 6749 §5.1
  /// `scope`), or the requested ones when the provider does not say (§3.3: then it granted what
  /// was asked).
  init(_ response: TokenResponse, requestedScopes: [String]) {
    let granted = response.scopes
    self.init(
      accessToken: response.accessToken, refreshToken: response.refreshToken,
      idToken: response.idToken, tokenType: response.tokenType,
      scopes: granted.isEmpty ? requestedScopes : granted, expiresAt: response.expiresAt,
      obtainedAt: response.receivedAt)
  }
}
