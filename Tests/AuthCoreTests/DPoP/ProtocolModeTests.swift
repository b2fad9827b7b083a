import AuthCore
import Crypto
import Foundation
import JSON
import Testing

/// What the provider file's `par` and `dpop` make of what the server publishes: pushed or not,
/// proofs or not, or an error before anything is sent.
@Suite struct ProtocolModeTests {
  static func configuration(
    par: ProtocolMode = .auto, dpop: ProtocolMode = .auto, endpoint: Bool = false,
    serverRequiresPAR: Bool = false, algorithms: [String] = []
  ) -> ProviderConfiguration {
    var configuration = TestProviders.oidc
    configuration.pushedAuthorization = par
    configuration.dpop = dpop
    configuration.pushedAuthorizationRequestEndpoint = endpoint ? TestProviders.url("/par") : nil
    configuration.requiresPushedAuthorizationRequests = serverRequiresPAR
    configuration.dpopSigningAlgorithms = algorithms
    return configuration
  }

  @Test func pushesWhenTheServerHasAnEndpointUnlessTurnedOff() throws {
    let par = TestProviders.url("/par")
    #expect(try Self.configuration(endpoint: true).pushedAuthorizationTarget() == par)
    #expect(try Self.configuration(endpoint: false).pushedAuthorizationTarget() == nil)
    #expect(
      try Self.configuration(par: .required, endpoint: true).pushedAuthorizationTarget() == par)
    #expect(try Self.configuration(par: .off, endpoint: true).pushedAuthorizationTarget() == nil)
    #expect(
      try Self.configuration(endpoint: true, serverRequiresPAR: true).pushedAuthorizationTarget()
        == par)
  }

  @Test func refusesWhatCannotBeMetBeforeAnythingIsSent() {
    #expect(throws: AuthError.pushedAuthorizationUnavailable("Work SSO", requiredByServer: false)) {
      try Self.configuration(par: .required).pushedAuthorizationTarget()
    }
    #expect(throws: AuthError.pushedAuthorizationUnavailable("Work SSO", requiredByServer: true)) {
      try Self.configuration(serverRequiresPAR: true).pushedAuthorizationTarget()
    }
    #expect(throws: AuthError.pushedAuthorizationRequiredByServer("Work SSO")) {
      try Self.configuration(par: .off, endpoint: true, serverRequiresPAR: true)
        .pushedAuthorizationTarget()
    }
  }

  @Test func refusesAnInsecurePushEndpoint() {
    var configuration = Self.configuration()
    configuration.pushedAuthorizationRequestEndpoint = URL(string: "http://id.example.com/par")
    #expect(
      throws: AuthError.insecureEndpoint(
        "pushed_authorization_request_endpoint", provider: "Work SSO")
    ) { try configuration.pushedAuthorizationTarget() }
  }

  @Test func signsProofsWhenTheServerListsES256() throws {
    #expect(try Self.configuration(algorithms: ["RS256", "ES256"]).dpopAlgorithm() == .es256)
    #expect(try Self.configuration(algorithms: ["RS256"]).dpopAlgorithm() == nil)
    #expect(try Self.configuration(algorithms: []).dpopAlgorithm() == nil)
    #expect(try Self.configuration(dpop: .off, algorithms: ["ES256"]).dpopAlgorithm() == nil)
    #expect(
      try Self.configuration(dpop: .required, algorithms: ["ES256"]).dpopAlgorithm() == .es256)
    #expect(throws: AuthError.dpopUnsupported("Work SSO", offered: ["RS256", "EdDSA"])) {
      try Self.configuration(dpop: .required, algorithms: ["RS256", "EdDSA"]).dpopAlgorithm()
    }
    #expect(throws: AuthError.dpopUnsupported("Work SSO", offered: [])) {
      try Self.configuration(dpop: .required).dpopAlgorithm()
    }
  }

  @Test func takesTheServersPushAndDPoPMembersFromItsMetadata() throws {
    let document = #"""
      {"issuer": "https://provider.test", "jwks_uri": "https://provider.test/jwks",
       "pushed_authorization_request_endpoint": "https://provider.test/par",
       "require_pushed_authorization_requests": true,
       "dpop_signing_alg_values_supported": ["ES256"]}
      """#
    let metadata = try OIDCProviderMetadata(
      json: try #require(JSONValue.object(from: Data(document.utf8))),
      expectedIssuer: "https://provider.test")
    let merged = TestProviders.oidc.applying(metadata)
    #expect(merged.pushedAuthorizationRequestEndpoint == TestProviders.url("/par"))
    #expect(merged.requiresPushedAuthorizationRequests)
    #expect(merged.dpopSigningAlgorithms == ["ES256"])
    #expect(try merged.dpopAlgorithm() == .es256)
  }
}
