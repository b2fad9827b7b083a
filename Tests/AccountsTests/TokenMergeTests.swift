import AuthCore
import Foundation
import Testing
import Vault

@testable import Accounts

/// The one merge of a token answer into stored tokens (`TokenSet.updated(with:)`), rule by rule.
@Suite struct TokenMergeTests {
  let signedIn = Date(timeIntervalSince1970: 1_000)
  let refreshed = Date(timeIntervalSince1970: 2_000)

  var stored: TokenSet {
    TokenSet(
      accessToken: "at-1", refreshToken: "rt-1", idToken: "id-1", tokenType: "Bearer",
      scopes: ["openid", "profile"], expiresAt: signedIn.addingTimeInterval(60),
      obtainedAt: signedIn)
  }

  @Test func aRotatedRefreshTokenReplacesTheStoredOne() {
    let answer = TokenResponse(accessToken: "at-2", refreshToken: "rt-2", receivedAt: refreshed)
    #expect(stored.updated(with: answer).refreshToken == "rt-2")
  }

  @Test func anAnswerWithoutRefreshTokenKeepsTheStoredOne() {
    let answer = TokenResponse(accessToken: "at-2", receivedAt: refreshed)
    #expect(stored.updated(with: answer).refreshToken == "rt-1")
  }

  @Test func grantedScopesReplaceTheStoredOnes() {
    let answer = TokenResponse(accessToken: "at-2", scope: "openid", receivedAt: refreshed)
    #expect(stored.updated(with: answer).scopes == ["openid"])
  }

  @Test func anAnswerWithoutScopeKeepsTheStoredScopes() {
    let answer = TokenResponse(accessToken: "at-2", receivedAt: refreshed)
    #expect(stored.updated(with: answer).scopes == ["openid", "profile"])
  }

  @Test func aSignInWithoutScopeGetsTheRequestedScopes() {
    let answer = TokenResponse(accessToken: "at-1", refreshToken: "rt-1", receivedAt: signedIn)
    let tokens = TokenSet(answer, requestedScopes: ["openid", "email"])
    #expect(tokens.scopes == ["openid", "email"])
    #expect(tokens.refreshToken == "rt-1")
    #expect(tokens.idToken == nil)
  }

  @Test func aSignInsGrantedScopesWinOverTheRequestedOnes() {
    let answer = TokenResponse(accessToken: "at-1", scope: "openid", receivedAt: signedIn)
    #expect(TokenSet(answer, requestedScopes: ["openid", "email"]).scopes == ["openid"])
  }

  @Test func anAnswerWithoutIDTokenKeepsTheStoredOne() {
    let answer = TokenResponse(accessToken: "at-2", receivedAt: refreshed)
    #expect(stored.updated(with: answer).idToken == "id-1")
  }

  @Test func aNewIDTokenReplacesTheStoredOne() {
    let answer = TokenResponse(accessToken: "at-2", idToken: "id-2", receivedAt: refreshed)
    #expect(stored.updated(with: answer).idToken == "id-2")
  }

  @Test func accessTokenTypeAndExpiryAreTheAnswers() {
    let answer = TokenResponse(
      accessToken: "at-2", tokenType: "DPoP", expiresIn: 30, receivedAt: refreshed)
    let tokens = stored.updated(with: answer)
    #expect(tokens.accessToken == "at-2")
    #expect(tokens.tokenType == "DPoP")
    #expect(tokens.expiresAt == refreshed.addingTimeInterval(30))
    #expect(tokens.obtainedAt == refreshed)
  }

  @Test func anAnswerWithoutExpiryHasNoExpiry() {
    let answer = TokenResponse(accessToken: "at-2", receivedAt: refreshed)
    #expect(stored.updated(with: answer).expiresAt == nil)
  }

  // MARK: The refresh token's validity

  var weekLong: TokenSet {
    var tokens = stored
    tokens.refreshValidity = DateInterval(start: signedIn, duration: 604_800)
    return tokens
  }

  /// The refresh token's validity after `weekLong` is refreshed at `refreshed` with an answer
  /// that carries `refreshToken` (`rt-1` again, a rotated one, or none) and says it lives
  /// `expiresIn` seconds (`refresh_token_expires_in`), or does not say.
  func validity(afterAnswerWith refreshToken: String?, expiresIn: TimeInterval? = nil)
    -> DateInterval?
  {
    let answer = TokenResponse(
      accessToken: "at-2", refreshToken: refreshToken, refreshTokenExpiresIn: expiresIn,
      receivedAt: refreshed)
    return weekLong.updated(with: answer).refreshValidity
  }

  @Test func aSignInsRefreshTokenLivesAsLongAsItsAnswerSays() {
    let answer = TokenResponse(
      accessToken: "at-1", refreshToken: "rt-1", refreshTokenExpiresIn: 604_800,
      receivedAt: signedIn)
    #expect(
      TokenSet(answer, requestedScopes: []).refreshValidity
        == DateInterval(start: signedIn, duration: 604_800))
    let silent = TokenResponse(accessToken: "at-1", refreshToken: "rt-1", receivedAt: signedIn)
    #expect(TokenSet(silent, requestedScopes: []).refreshValidity == nil)
  }

  @Test func aRefreshThatKeepsTheRefreshTokenKeepsItsSignInsValidity() {
    // Google: no refresh token in the answer. Others send the same one again; the provider
    // file's lifetime is for a new refresh token, and this one is not new.
    let without = TokenResponse(accessToken: "at-2", expiresIn: 3599, receivedAt: refreshed)
    let same = TokenResponse(
      accessToken: "at-2", refreshToken: "rt-1", refreshTokenLifetime: 604_800,
      receivedAt: refreshed)
    for answer in [without, same] {
      #expect(weekLong.updated(with: answer).refreshValidity == weekLong.refreshValidity)
    }
  }

  @Test func theSameRefreshTokenWithALifetimeStatedAnewTakesIt() {
    #expect(
      validity(afterAnswerWith: "rt-1", expiresIn: 86_400)
        == DateInterval(start: signedIn, end: refreshed.addingTimeInterval(86_400)))
    // A wire 0 says nothing, as the provider file's 0 does.
    #expect(validity(afterAnswerWith: "rt-1", expiresIn: 0) == weekLong.refreshValidity)
  }

  @Test func aRefreshThatWorksAfterTheEndItWasGivenForgetsThatEnd() {
    // A `refresh_token_lifetime` of 7 days set for an app that is published (or was never in
    // Testing): the refresh on day 8 worked, so the account must not say "ended" ever after.
    let dayEight = signedIn.addingTimeInterval(8 * 86_400)
    for refreshToken in [nil, "rt-1"] {
      let answer = TokenResponse(
        accessToken: "at-2", refreshToken: refreshToken, refreshTokenLifetime: 604_800,
        receivedAt: dayEight)
      #expect(weekLong.updated(with: answer).refreshValidity == nil)
    }
    let beforeTheEnd = TokenResponse(
      accessToken: "at-2", receivedAt: signedIn.addingTimeInterval(6 * 86_400))
    #expect(weekLong.updated(with: beforeTheEnd).refreshValidity == weekLong.refreshValidity)
  }

  @Test func aRotatedRefreshTokenHasItsOwnValidityOrNoneKnown() {
    #expect(
      validity(afterAnswerWith: "rt-2", expiresIn: 15_897_600)
        == DateInterval(start: refreshed, duration: 15_897_600))
    #expect(validity(afterAnswerWith: "rt-2") == nil)
  }

  @Test func tokensWithoutARefreshTokenHaveNoRefreshValidity() {
    let tokens = TokenSet(
      accessToken: "at", obtainedAt: signedIn,
      refreshValidity: DateInterval(start: signedIn, duration: 60))
    #expect(tokens.refreshValidity == nil)
  }
}
