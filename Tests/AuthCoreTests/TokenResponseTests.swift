import AuthCore
import Foundation
import JSON
import Testing

@Suite struct TokenResponseTests {
  let received = Date(timeIntervalSince1970: 1_800_000_000)

  @Test func mapsRFC6749Section51AndComputesTheExpiry() throws {
    let tokens = try TokenResponse(
      json: [
        "access_token": .string("at"), "token_type": .string("Bearer"),
        "expires_in": .string("3600"), "refresh_token": .string("rt"),
        "scope": .string("read write"), "id_token": .string("h.p.s"), "x": .number(1),
      ], receivedAt: received)
    #expect(tokens.expiresAt == received.addingTimeInterval(3600))
    #expect(tokens.scopes == ["read", "write"])
    #expect(tokens.additionalParameters == ["x": .number(1)])
  }

  @Test func refusesAnAnswerWithoutAnAccessToken() {
    #expect(throws: AuthError.malformedResponse("the answer has no access_token")) {
      _ = try TokenResponse(json: ["access_token": .string("")], receivedAt: received)
    }
  }

  @Test func hasNoExpiryWhenTheProviderGivesNone() throws {
    let tokens = try TokenResponse(json: ["access_token": .string("at")], receivedAt: received)
    #expect(tokens.expiresAt == nil)
  }

  @Test func anImplausibleAccessTokenLifetimeIsCutToTenYearsAndKeptForTheNote() throws {
    let tenYears: TimeInterval = 315_360_000
    for (stated, said) in [
      (JSONValue.number(1e300), 1e300), (.number(9.3e18), 9.3e18), (.string("1e999"), .infinity),
    ] {
      let tokens = try TokenResponse(
        json: ["access_token": .string("at"), "expires_in": stated], receivedAt: received)
      #expect(tokens.expiresIn == tenYears)
      #expect(tokens.expiresAt == received.addingTimeInterval(tenYears))
      #expect(tokens.implausibleExpiresIn == said)
    }
    let believed = try TokenResponse(
      json: ["access_token": .string("at"), "expires_in": .number(tenYears)], receivedAt: received)
    #expect(believed.expiresIn == tenYears)
    #expect(believed.implausibleExpiresIn == nil)
    let past = try TokenResponse(
      json: ["access_token": .string("at"), "expires_in": .number(-5)], receivedAt: received)
    #expect(past.expiresIn == 0)
    let notANumber = try TokenResponse(
      json: ["access_token": .string("at"), "expires_in": .string("nan")], receivedAt: received)
    #expect(notANumber.expiresIn == nil)
    #expect(notANumber.expiresAt == nil)
    // Built in code (a PIN flow's tokens) the same rule holds.
    let built = TokenResponse(accessToken: "at", expiresIn: 1e300, receivedAt: received)
    #expect(built.expiresIn == tenYears)
    #expect(built.implausibleExpiresIn == 1e300)
  }

  @Test func refusesATokenHoldingAControlOrDirectionCharacter() {
    for (member, token) in [
      ("access_token", "at\u{1B}]0;title\u{07}"), ("access_token", "at\n"),
      ("refresh_token", "rt\u{202E}"), ("refresh_token", "rt\u{85}"),
    ] {
      var json: [String: JSONValue] = [
        "access_token": .string("at"), "refresh_token": .string("rt"),
      ]
      json[member] = .string(token)
      #expect(
        throws: AuthError.malformedResponse(
          "the \(member) holds control characters, which no token may hold")
      ) {
        _ = try TokenResponse(json: json, receivedAt: received)
      }
    }
  }

  @Test func aRefreshTokensLifetimeIsTheAnswersOrElseTheProviderFiles() throws {
    let said = try TokenResponse(
      json: [
        "access_token": .string("at"), "refresh_token": .string("rt"),
        "refresh_token_expires_in": .number(15_897_600),
      ], receivedAt: received, refreshTokenLifetime: 604_800)
    #expect(said.refreshTokenExpiresAt == received.addingTimeInterval(15_897_600))
    #expect(said.additionalParameters.isEmpty)
    let unsaid = try TokenResponse(
      json: ["access_token": .string("at"), "refresh_token": .string("rt")],
      receivedAt: received, refreshTokenLifetime: 604_800)
    #expect(unsaid.refreshTokenExpiresAt == received.addingTimeInterval(604_800))
    // No refresh token, no lifetime, whatever the answer or the file says.
    let none = try TokenResponse(
      json: ["access_token": .string("at"), "refresh_token_expires_in": .number(60)],
      receivedAt: received, refreshTokenLifetime: 604_800)
    #expect(none.refreshTokenExpiresIn == nil)
    #expect(none.refreshTokenExpiresAt == nil)
    #expect("\(unsaid)".contains("refresh_token_expires_at: 2027-01-22T08:00:00Z"))
    // The answer's own word is kept apart from the file's, for a refresh token sent again.
    #expect(said.refreshTokenExpiresIn == 15_897_600)
    #expect(unsaid.refreshTokenExpiresIn == nil)
    #expect(unsaid.refreshTokenLifetime == 604_800)
    // 0 or less says nothing (the file's 0 means "no known end"), never "ended already".
    let zero = try TokenResponse(
      json: [
        "access_token": .string("at"), "refresh_token": .string("rt"),
        "refresh_token_expires_in": .number(0),
      ], receivedAt: received)
    #expect(zero.refreshTokenExpiresAt == nil)
    // A quoted number too big for a Double is infinity: capped at ten years, never endless.
    let endless = try TokenResponse(
      json: [
        "access_token": .string("at"), "refresh_token": .string("rt"),
        "refresh_token_expires_in": .string("1e999"),
      ], receivedAt: received)
    #expect(endless.refreshTokenExpiresIn == nil)
    let huge = try TokenResponse(
      json: [
        "access_token": .string("at"), "refresh_token": .string("rt"),
        "refresh_token_expires_in": .number(1e300),
      ], receivedAt: received)
    #expect(huge.refreshTokenExpiresIn == 315_360_000)
  }

  @Test func neverShowsATokenOrAnUnknownValueInItsDescription() throws {
    let tokens = TokenResponse(
      accessToken: "secret-access", tokenType: "bearer", expiresIn: 60,
      refreshToken: "secret-refresh", idToken: "secret-id",
      additionalParameters: ["session": .string("secret-session")], receivedAt: received)
    let text = "\(tokens)"
    #expect(!text.contains("secret"))
    #expect(text.contains("refresh_token: <redacted>"))
    #expect(text.contains("other members: session"))
  }
}
