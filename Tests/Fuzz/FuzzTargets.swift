/// Every fuzz target, one per parser of outside input (docs/testing.md "Fuzzing and sanitizers": `make fuzz`).
enum FuzzTargets {
  static let all: [FuzzTarget] = [
    httpRequest, redirect, jsonParser, jsonWire, providerFile, configFile, themeFile,
    tokenResponse, deviceAuthorization, discovery, compactJWS, idTokenClaims, jwks, envFile,
    agentRequest, agentResponse, gitCredential, dpopNonce, wwwAuthenticate, pushedAuthorization,
    agentProof, clientRegistration, refreshSideFile, tokenShortcut,
  ]

  /// The target called `name`.
  static func named(_ name: String) -> FuzzTarget? {
    all.first { $0.name == name }
  }
}
