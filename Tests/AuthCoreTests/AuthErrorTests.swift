import AuthCore
import Foundation
import Testing

@Suite struct AuthErrorTests {
  static let everyCase: [AuthError] = [
    .cancelled, .accessDenied(description: nil), .noAnswer(waited: 300), .userCodeExpired,
    .refreshTokenRejected(description: nil), .portInUse(8765), .listenerFailed("socket: EMFILE"),
    .stateMismatch, .issuerMismatch(expected: "https://a", received: "https://b"),
    .malformedRedirect("no code"), .authorizationFailed(OAuthError(code: .serverError)),
    .authorizationFailed(OAuthError(code: .invalidScope)),
    .pkceVerificationFailed(description: nil), .authorizationCodeUsed, .authorizationCodeExpired,
    .authorizationCodeFromTheFuture, .pinCodeReplaced,
    .tokenRequestRejected(OAuthError(code: .invalidGrant)),
    .tokenRequestRejected(OAuthError(code: .invalidClient)),
    .tokenRequestRejected(OAuthError(code: .invalidScope)),
    .tokenRequestRejected(OAuthError(code: .unsupportedGrantType)),
    .tokenRequestRejected(OAuthError(code: .invalidRequest)),
    .revocationRejected(OAuthError(code: .invalidRequest)), .serverError(status: 500),
    .unexpectedStatus(418), .redirectRefused(status: 302), .emptyResponse(status: 200),
    .nonJSONResponse(status: 200), .malformedResponse("no access_token"),
    .transport(.timedOut(seconds: 30)), .transport(.connectionLost(host: "a")),
    .transport(.cannotConnect(host: "a")), .transport(.insecureConnection(host: "a")),
    .transport(.hostNotFound(host: "a")), .transport(.untrustedCertificate(host: "a")),
    .transport(.responseTooLarge(limit: 1)),
    .transport(.cancelled),
    .transport(.failed("the request to a failed (URLError -1)")),
    .flowNotOffered(.device, provider: "Simkl"), .missingEndpoint("token_endpoint", provider: "X"),
    .insecureEndpoint("token_endpoint", provider: "X"),
    .endpointNotDiscovered(
      "device_authorization_endpoint", provider: "GitLab", issuer: "https://gitlab.example.com"),
    .endpointNotDiscovered("revocation_endpoint", provider: "X", issuer: "https://x.example"),
    .pushedAuthorizationUnavailable("Work SSO", requiredByServer: false),
    .pushedAuthorizationUnavailable("Work SSO", requiredByServer: true),
    .pushedAuthorizationRequiredByServer("Work SSO"),
    .pushedAuthorizationRejected(OAuthError(code: .invalidRequest, errorDescription: "No.")),
    .pushedAuthorizationRejected(OAuthError(code: .invalidScope)),
    .dpopUnsupported("Work SSO", offered: []), .dpopUnsupported("Work SSO", offered: ["RS256"]),
    .dpopKeyMissing("Work SSO"), .dpopProofFailed("the agent stopped"), .unexpectedDPoPToken,
    .tokenRequestRejected(OAuthError(code: .useDPoPNonce)),
    .tokenRequestRejected(OAuthError(code: .invalidDPoPProof)),
  ]

  @Test(arguments: everyCase)
  func saysWhatToDoNextInOneSentence(error: AuthError) {
    let message = error.message
    #expect(message.first?.isUppercase == true)
    #expect(message.hasSuffix("."))
    #expect(message.contains(";"), "a message names the problem, then the next step")
    #expect(!message.dropLast().contains(". "), "one sentence")
    #expect("\(error)" == message)
  }

  @Test func mapsToTheCommandLinesExitCodes() {
    let codes = Dictionary(grouping: Self.everyCase, by: \.exitCode).mapValues { $0.map(\.code) }
    #expect(codes[6] == ["cancelled", "access_denied", "no_answer", "expired_token"])
    #expect(codes[5] == ["sign_in_needed"])
    #expect(codes[2] == ["flow_not_offered", "endpoint_not_discovered", "endpoint_not_discovered"])
    // What the provider file asks for and the server does not offer: fixed in the file.
    #expect(
      codes[1] == [
        "missing_endpoint", "insecure_endpoint", "par_unavailable", "par_unavailable",
        "par_required", "dpop_unsupported", "dpop_unsupported", "dpop_key_missing",
      ])
    #expect(codes[7]?.count == Self.everyCase.count - 16)
  }

  /// Control characters show as escapes, as docs/scripting.md says of error descriptions (they
  /// were dropped: an ESC vanished without a trace), and the text stays short.
  @Test func keepsHostileProviderTextShortAndPrintable() {
    let error = OAuthError(
      code: .invalidGrant,
      errorDescription: " bad\u{1B}[31m\n\u{202E}" + String(repeating: "x", count: 1000) + "\n")
    let description = error.errorDescription ?? ""
    #expect(description.count == 300)
    #expect(description.hasPrefix(#"bad\u{1B}[31m\u{A}\u{202E}xxx"#))
    #expect(!description.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" })
    // The cut never splits an escape: 296 x's and a whole `\u{1B}` would not fit in 300.
    let cut = OAuthError(
      code: .invalidGrant,
      errorDescription: String(repeating: "x", count: 296) + "\u{1B}" + "yyyyyy")
    #expect(cut.errorDescription == String(repeating: "x", count: 296))
    #expect(OAuthError(code: .invalidGrant, errorDescription: " \n\t ").errorDescription == nil)
  }

  @Test func saysThatAServerWithoutADeviceEndpointDoesNotOfferTheDeviceFlow() {
    let error = AuthError.endpointNotDiscovered(
      "device_authorization_endpoint", provider: "GitLab (work)",
      issuer: "https://gitlab.example.com")
    #expect(
      error.message
        == "GitLab (work) does not offer the device flow: the discovery document of "
        + "https://gitlab.example.com lists no device_authorization_endpoint (the server may be "
        + "too old for it); sign in with the browser instead (`--flow pkce`), or add "
        + "device_authorization_endpoint to the provider file if the server has one.")
  }

  @Test func aRefusedPushNamesTheProvidersErrorCleaned() {
    let error = AuthError.pushedAuthorizationRejected(
      OAuthError(code: .invalidScope, errorDescription: "Unknown scope `x`\u{202E}gpj.exe"))
    #expect(
      error.message
        == "The provider refused the sign-in request it was sent first (invalid_scope: Unknown "
        + "scope `x`\\u{202E}gpj.exe); check the client id, scopes and redirect settings in the "
        + "provider's configuration, then start again.")
    #expect(error.code == "invalid_scope")
  }

  @Test func namesTheCommandThatFindsThePortsHolder() {
    #expect(AuthError.portInUse(8765).message.contains("`ss -ltnp 'sport = :8765'`"))
  }
}
