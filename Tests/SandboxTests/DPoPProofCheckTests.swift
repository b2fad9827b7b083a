import AuthCore
import Crypto
import Foundation
import JSON
import Sandbox
import TestSupport
import Testing

/// The `oidc` profile's DPoP checks (RFC 9449 §4.3) over HTTP, with proofs built here by hand
/// so that each can be wrong in exactly one way: every refusal names what was wrong and is
/// counted, a good proof binds the tokens, and the nonce is demanded when the settings say so.
@Suite(.sandboxHarness) struct DPoPProofCheckTests {
  var harness: SandboxHarness { .current }
  let key: P256SigningKey

  init() throws {
    key = try P256SigningKey.generate()
  }

  typealias Paths = SandboxPaths.OIDC

  func turnOn(_ members: String = "") async {
    let answer = await harness.postJSON(
      SandboxPaths.Hooks.settings, #"{"profile":"oidc","dpop":"offered"\#(members)}"#)
    #expect(answer.status == 200, "\(answer.body)")
  }

  /// A proof JWT with the given parts; what is not given is right for `POST token` now.
  func proof(
    typ: String = "dpop+jwt", alg: String = "ES256", jwk: OrderedJSON? = nil,
    signer: P256SigningKey? = nil, htm: String = "POST", htu: String? = nil,
    iat: Int? = nil, jti: String? = UUID().uuidString, ath: String? = nil, nonce: String? = nil
  ) throws -> String {
    let publicKey =
      jwk ?? .object(key.publicParameters.requiredMembers.map { ($0.name, .string($0.value)) })
    let header: OrderedJSON = .object([
      ("typ", .string(typ)), ("alg", .string(alg)), ("jwk", publicKey),
    ])
    var claims: [(String, OrderedJSON)] = [
      ("htm", .string(htm)), ("htu", .string(htu ?? harness.url(Paths.token))),
      ("iat", .int(iat ?? Int(harness.clockOrigin.timeIntervalSince1970))),
    ]
    if let jti { claims.append(("jti", .string(jti))) }
    if let ath { claims.append(("ath", .string(ath))) }
    if let nonce { claims.append(("nonce", .string(nonce))) }
    let input =
      Base64URL.encode(Array(header.text.utf8)) + "."
      + Base64URL.encode(Array(OrderedJSON.object(claims).text.utf8))
    let signature = try (signer ?? key).signature(for: Array(input.utf8))
    return input + "." + Base64URL.encode(signature)
  }

  /// A consented code of a fresh sign-in, exchanged with `headers`.
  func exchange(headers: [String]) async throws -> RawHTTPResponse {
    let signIn = OpenIDSignIn.oidc(harness)
    let code = try #require(try await signIn.authorize()["code"])
    return await harness.postForm(
      Paths.token,
      [
        ("grant_type", "authorization_code"), ("code", code),
        ("redirect_uri", harness.callback.redirectURI), ("client_id", signIn.clientID),
        ("code_verifier", signIn.pkce.verifier),
      ], headers: headers)
  }

  @Test func aGoodProofBindsTheTokensToItsKey() async throws {
    await turnOn()
    let answer = try await exchange(headers: ["DPoP: \(try proof())"])
    #expect(answer.status == 200, "\(answer.body)")
    #expect(answer.json?["token_type"] as? String == "DPoP")
    #expect(await harness.server.stats()[.dpopProofs] == 1)
    let discovery = try #require(await harness.get(Paths.discovery).json)
    #expect(discovery["dpop_signing_alg_values_supported"] as? [String] == ["ES256"])
  }

  @Test func withDPoPOffAProofIsIgnoredAndTokensAreBearer() async throws {
    let answer = try await exchange(headers: ["DPoP: \(try proof())"])
    #expect(answer.json?["token_type"] as? String == "Bearer")
    #expect(
      try #require(await harness.get(Paths.discovery).json)["dpop_signing_alg_values_supported"]
        == nil)
  }

  @Test func refusesEachWrongProofNamingWhatIsWrong() async throws {
    await turnOn()
    let stranger = try P256SigningKey.generate()
    let old = Int(harness.clockOrigin.timeIntervalSince1970) - 301
    let repeated = try proof(jti: "once")
    _ = try await exchange(headers: ["DPoP: \(repeated)"])
    let cases: [(String, [String])] = [
      ("typ is not dpop+jwt", ["DPoP: \(try proof(typ: "JWT"))"]),
      ("alg is not one this server takes", ["DPoP: \(try proof(alg: "RS256"))"]),
      ("alg is not one this server takes", ["DPoP: \(try proof(alg: "none"))"]),
      ("signature does not verify", ["DPoP: \(try proof(signer: stranger))"]),
      ("htm is not POST", ["DPoP: \(try proof(htm: "GET"))"]),
      ("htu is not", ["DPoP: \(try proof(htu: harness.url(Paths.revoke)))"]),
      ("iat is more than 300 seconds", ["DPoP: \(try proof(iat: old))"]),
      ("has no jti", ["DPoP: \(try proof(jti: nil))"]),
      ("used before", ["DPoP: \(repeated)"]),
      ("not a JWT in compact form", ["DPoP: not.a.jwt"]),
      ("Send one DPoP header, not 2", ["DPoP: \(try proof())", "DPoP: \(try proof())"]),
    ]
    for (reason, headers) in cases {
      let answer = try await exchange(headers: headers)
      #expect(answer.status == 400, "\(reason)")
      #expect(answer.json?["error"] as? String == "invalid_dpop_proof", "\(reason)")
      #expect(
        (answer.json?["error_description"] as? String)?.contains(reason) == true, "\(answer.body)")
    }
    let privateKey: OrderedJSON = .object(
      key.publicParameters.requiredMembers.map { ($0.name, .string($0.value)) }
        + [("d", .string(Base64URL.encode(key.rawRepresentation)))])
    let leaking = try await exchange(headers: ["DPoP: \(try proof(jwk: privateKey))"])
    #expect(
      (leaking.json?["error_description"] as? String)?.contains("not a public P-256 key") == true)
    let stats = await harness.server.stats()
    #expect(stats[.refusedDPoPProofs] == cases.count + 1)
    #expect(stats[.exchanges] == 1)
  }

  @Test func aRequiredProofIsRefusedWhenMissing() async throws {
    await turnOn(#","dpop":"required""#)
    let answer = try await exchange(headers: [])
    #expect(answer.status == 400)
    #expect(answer.json?["error"] as? String == "invalid_dpop_proof")
  }

  @Test func demandsTheNonceWhenTheSettingsSaySo() async throws {
    await turnOn(#","dpop_nonce":true"#)
    let challenged = try await exchange(headers: ["DPoP: \(try proof())"])
    #expect(challenged.status == 400)
    #expect(challenged.json?["error"] as? String == "use_dpop_nonce")
    let nonce = try #require(challenged.header("DPoP-Nonce"))
    let answered = try await exchange(headers: ["DPoP: \(try proof(nonce: nonce))"])
    #expect(answered.status == 200, "\(answered.body)")
    #expect(answered.header("DPoP-Nonce") == nonce)
    #expect(await harness.server.stats()[.dpopNonceChallenges] == 1)
  }

  @Test func userinfoTakesABoundTokenOnlyWithAProofOfItsKeyAndHash() async throws {
    await turnOn()
    let tokens = try await exchange(headers: ["DPoP: \(try proof())"])
    let token = try #require(tokens.json?["access_token"] as? String)
    let url = harness.url(Paths.userinfo)
    let hash = Base64URL.encode(SHA256.hash(token))
    func ask(_ headers: [String]) async -> RawHTTPResponse {
      await harness.get(Paths.userinfo, headers: headers)
    }
    let good = await ask([
      "Authorization: DPoP \(token)", "DPoP: \(try proof(htm: "GET", htu: url, ath: hash))",
    ])
    #expect(good.status == 200, "\(good.body)")
    let bearer = await ask(["Authorization: Bearer \(token)"])
    #expect(bearer.status == 401)
    #expect(bearer.header("WWW-Authenticate")?.hasPrefix("DPoP error=\"invalid_token\"") == true)
    let wrongHash = await ask([
      "Authorization: DPoP \(token)", "DPoP: \(try proof(htm: "GET", htu: url, ath: "x"))",
    ])
    #expect(wrongHash.header("WWW-Authenticate")?.contains("ath is not the hash") == true)
    let otherKey = try P256SigningKey.generate()
    let otherJWK: OrderedJSON = .object(
      otherKey.publicParameters.requiredMembers.map { ($0.name, .string($0.value)) })
    let stranger = await ask([
      "Authorization: DPoP \(token)",
      "DPoP: \(try proof(jwk: otherJWK, signer: otherKey, htm: "GET", htu: url, ath: hash))",
    ])
    #expect(stranger.status == 401)
    #expect(stranger.header("WWW-Authenticate")?.contains("not bound to the proof's key") == true)
  }
}
