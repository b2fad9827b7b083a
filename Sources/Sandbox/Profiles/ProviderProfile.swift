import AuthCore
import Foundation
import Loopback

/// One emulated provider: its state (codes, tokens, keys) and how it answers its paths.
///
/// Profiles are values owned by the engine actor, so every change to them is isolated there;
/// a profile never sees another's state.
protocol ProviderProfile: Sendable {
  /// Answers a request for one of the profile's paths.
  mutating func respond(to request: HTTPRequest, context: inout ProviderContext) -> HTTPResponse

  /// Makes every refresh token unusable; returns how many were usable.
  mutating func invalidateRefreshTokens(now: Date) -> Int

  /// Replaces the signing keys; returns the new `kid`s (none for a profile without keys).
  mutating func rotateKeys() throws -> [String]
}

extension ProviderProfile {
  mutating func invalidateRefreshTokens(now: Date) -> Int { 0 }
  mutating func rotateKeys() throws -> [String] { [] }
}

/// A profile that is an `OpenIDAuthority` configured as the provider and nothing more: its
/// answers, refresh-token invalidation and key rotation are the authority's.
protocol AuthorityProfile: ProviderProfile {
  var authority: OpenIDAuthority { get set }
}

extension AuthorityProfile {
  mutating func respond(to request: HTTPRequest, context: inout ProviderContext) -> HTTPResponse {
    authority.respond(to: request, context: &context) ?? Answers.notFound(request.path)
  }

  mutating func invalidateRefreshTokens(now: Date) -> Int {
    authority.tokens.invalidateRefreshTokens(now: now)
  }

  mutating func rotateKeys() throws -> [String] {
    try authority.keys.rotate()
  }
}
