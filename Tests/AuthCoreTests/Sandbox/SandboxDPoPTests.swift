import AuthCore
import Crypto
import Foundation
import Sandbox
import TestSupport
import Testing

/// DPoP (RFC 9449) against the sandbox's `oidc` profile over real HTTP: tokens bound to the
/// key of a PKCE or device sign-in, refreshed and revoked with proofs of the same key, the
/// sandbox's nonce challenge answered once, a proof a test replays refused, and a resource
/// proof the userinfo endpoint accepts.
@Suite(.sandboxHarness) struct SandboxDPoPTests {
  var harness: SandboxHarness { .current }
  let key: P256SigningKey

  init() throws {
    key = try P256SigningKey.generate()
  }

  func offerDPoP(
    _ setting: ProfileSettings.Extension = .offered, nonce: Bool = false,
    algorithms: [String] = ["ES256"]
  ) async {
    var settings = await harness.server.settings(for: .oidc)
    settings.dpop = setting
    settings.dpopNonceRequired = nonce
    settings.dpopSigningAlgorithms = algorithms
    await harness.server.setSettings(settings, for: .oidc)
  }

  /// The `oidc` profile found through discovery, reached through `transport`.
  func provider(
    transport: any Transport = URLSessionTransport(),
    _ change: (inout ProviderConfiguration) -> Void = { _ in }
  ) -> OIDCProvider {
    var configuration = SandboxOpenIDTests.issuerOnly(harness)
    change(&configuration)
    return OIDCProvider(configuration: configuration, transport: transport)
  }

  /// A browser sign-in with `client`, approved by alice.
  func signIn(_ client: ProviderClient) async throws -> (AuthorizationCodeSignIn, TokenResponse) {
    let attempt = try await AuthorizationCodeSignIn.start(client: client)
    _ = await SandboxHarness.person().visit(await attempt.browserAddress().absoluteString)
    return (attempt, try await attempt.tokens())
  }

  static func paths(_ requests: [TransportRequest], proven: Bool) -> [String] {
    requests.filter { ($0.header("DPoP") != nil) == proven }.map(\.url.path)
  }

  @Test func signsInRefreshesAndRevokesWithOneKey() async throws {
    await offerDPoP()
    let transport = InterceptingTransport { $0 }
    let provider = provider(transport: transport)
    let client = try await provider.client().signingProofs(with: key)
    let (attempt, tokens) = try await signIn(client)
    #expect(tokens.tokenType == "DPoP")
    #expect(tokens.isDPoPBound)
    let idToken = try await provider.validateIDToken(in: tokens, nonce: await attempt.request.nonce)
    // The identity step sends the bound token with a proof to userinfo.
    #expect(try await client.identity(for: tokens, idToken: idToken)?.label == "alice")

    let refreshed = try await client.refresh(try #require(tokens.refreshToken))
    #expect(refreshed.tokenType == "DPoP")
    let revoked = try await client.revoke(
      accessToken: refreshed.accessToken, refreshToken: refreshed.refreshToken)
    #expect(revoked == .revoked)

    let sent = await transport.built
    #expect(
      Self.paths(sent, proven: true) == [
        SandboxPaths.OIDC.token, SandboxPaths.OIDC.userinfo, SandboxPaths.OIDC.token,
        SandboxPaths.OIDC.revoke, SandboxPaths.OIDC.revoke,
      ])
    let proofs = sent.compactMap(\.dpopProof)
    #expect(proofs.count == 5)
    #expect(proofs.allSatisfy { $0.header["jwk"] == proofs.first?.header["jwk"] })
    #expect(proofs.allSatisfy { $0.isSigned(by: key) })
    let stats = await harness.server.stats()
    #expect(stats[.dpopProofs] == 5)
    #expect(stats[.refusedDPoPProofs] == 0)
    #expect(stats[.refreshes] == 1)
    #expect(stats[.revocations] == 2)
  }

  @Test func signsInOnADeviceWithDPoP() async throws {
    await offerDPoP()
    let clock = ManualClock(now: harness.clockOrigin)
    let transport = InterceptingTransport { $0 }
    let configuration = try await provider { $0.flows = [.device] }.configuration()
    let client = harness.client(configuration, clock: clock, transport: transport)
      .signingProofs(with: key)
    let attempt = try await UserCodeSignIn.startDevice(client: client)
    let approval = try #require(attempt.authorization.verificationURIComplete)
    _ = await driveAgainstSandbox(
      attempt, clock: clock, sandbox: harness.server, origin: harness.clockOrigin
    ) { poll, _ in
      if poll == 2 { _ = await SandboxHarness.person().visit(approval.absoluteString) }
    }
    let tokens = try await attempt.tokens()
    #expect(tokens.isDPoPBound)
    let polls = await transport.built.filter { $0.url.path == SandboxPaths.OIDC.token }
    #expect(polls.count == 2)
    #expect(polls.allSatisfy { $0.dpopProof?.isSigned(by: key) == true })
    #expect(await harness.server.stats()[.deviceTokens] == 1)
  }

  @Test func aRefreshWithAnotherKeyIsRefusedAndLeavesTheTokenForItsOwn() async throws {
    await offerDPoP()
    let client = try await provider().client().signingProofs(with: key)
    let (_, tokens) = try await signIn(client)
    let refreshToken = try #require(tokens.refreshToken)
    let stranger = client.signingProofs(with: try P256SigningKey.generate())
    let error = await #expect(throws: AuthError.self) { try await stranger.refresh(refreshToken) }
    guard case .tokenRequestRejected(let oauth)? = error else {
      Issue.record("expected the provider's refusal, got \(String(describing: error))")
      return
    }
    #expect(oauth.code == .invalidDPoPProof)
    #expect(oauth.errorDescription?.contains("bound to another DPoP key") == true)
    // Without a proof at all: refused too.
    await #expect(throws: AuthError.self) {
      try await client.signingProofs(with: nil).refresh(refreshToken)
    }
    #expect(try await client.refresh(refreshToken).isDPoPBound)
  }

  @Test func answersTheNonceChallengeOnceAndRemembersTheNonce() async throws {
    await offerDPoP(nonce: true)
    let transport = InterceptingTransport { $0 }
    let provider = provider(transport: transport)
    let client = try await provider.client().signingProofs(with: key)
    let (_, tokens) = try await signIn(client)
    #expect(tokens.isDPoPBound)
    #expect(await harness.server.stats()[.dpopNonceChallenges] == 1)
    _ = try await client.refresh(try #require(tokens.refreshToken))
    _ = try await client.userinfo(
      accessToken: tokens.accessToken, dpopBound: true, expectedSubject: "alice")
    #expect(await harness.server.stats()[.dpopNonceChallenges] == 1)
    let tokenRequests = await transport.built.filter { $0.url.path == SandboxPaths.OIDC.token }
    #expect(tokenRequests.map { $0.dpopProof?.claims["nonce"] == nil } == [true, false, false])
  }

  @Test func aProofReplayedByTheTestIsRefusedBySandbox() async throws {
    await offerDPoP()
    let transport = InterceptingTransport { $0 }
    let client = try await provider(transport: transport).client().signingProofs(with: key)
    let (_, tokens) = try await signIn(client)
    _ = try await client.refresh(try #require(tokens.refreshToken))
    // The refresh went through with this very proof: only its second use is refused.
    let original = try #require(
      await transport.built.last { $0.url.path == SandboxPaths.OIDC.token })
    let replay = try await transport.resend(original)
    #expect(replay.status == 400)
    let body = String(decoding: replay.body, as: UTF8.self)
    #expect(body.contains("invalid_dpop_proof"))
    #expect(body.contains("used before"))
    let stats = await harness.server.stats()
    #expect(stats[.refusedDPoPProofs] == 1)
    #expect(stats[.refreshes] == 1)
  }

  @Test func aResourceProofIsAcceptedAtUserinfoOnceAndOnlyThere() async throws {
    await offerDPoP()
    let client = try await provider().client().signingProofs(with: key)
    let (_, tokens) = try await signIn(client)
    let userinfo = try #require(harness.endpoint(SandboxPaths.OIDC.userinfo))
    let proof = try await client.resourceProof(
      method: "GET", url: userinfo, accessToken: tokens.accessToken)
    let headers = ["Authorization: DPoP \(tokens.accessToken)", "DPoP: \(proof)"]
    let answer = await harness.get(SandboxPaths.OIDC.userinfo, headers: headers)
    #expect(answer.status == 200)
    #expect(answer.json?["sub"] as? String == "alice")
    let replayed = await harness.get(SandboxPaths.OIDC.userinfo, headers: headers)
    #expect(replayed.status == 401)
    #expect(replayed.header("WWW-Authenticate")?.contains(#"error="invalid_dpop_proof""#) == true)
    let posted = try await client.resourceProof(
      method: "POST", url: userinfo, accessToken: tokens.accessToken)
    let wrongMethod = await harness.get(
      SandboxPaths.OIDC.userinfo,
      headers: ["Authorization: DPoP \(tokens.accessToken)", "DPoP: \(posted)"])
    #expect(wrongMethod.status == 401)
    let asBearer = await harness.get(
      SandboxPaths.OIDC.userinfo, headers: ["Authorization: Bearer \(tokens.accessToken)"])
    #expect(asBearer.status == 401)
  }

  @Test func dpopRequiredWithoutES256AtTheServerFailsBeforeTheSignIn() async throws {
    await offerDPoP(algorithms: ["RS256"])
    let provider = provider { $0.dpop = .required }
    await #expect(
      throws: AuthError.dpopUnsupported("Sandbox OpenID Provider", offered: ["RS256"])
    ) {
      try await AuthorizationCodeSignIn.start(
        client: try await provider.client().signingProofs(with: key))
    }
    #expect(await harness.server.stats()[.authorizations] == 0)
  }

  @Test func aServerWithoutDPoPGetsNoProofAndGivesBearerTokens() async throws {
    let transport = InterceptingTransport { $0 }
    let client = try await provider(transport: transport).client().signingProofs(with: key)
    let (_, tokens) = try await signIn(client)
    #expect(tokens.tokenType == "Bearer")
    #expect(await transport.built.allSatisfy { $0.header("DPoP") == nil })
  }
}
