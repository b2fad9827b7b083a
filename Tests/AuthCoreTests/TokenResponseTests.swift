import AuthCore
import Foundation
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
