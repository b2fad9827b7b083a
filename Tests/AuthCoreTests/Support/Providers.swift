import AuthCore
import Foundation

/// Provider configurations shaped like the presets, pointing at a fake host.
enum TestProviders {
  static let host = "https://provider.test"

  static func url(_ path: String) -> URL {
    URL(string: host + path) ?? URL(fileURLWithPath: "/")
  }

  /// Simkl's shape: two hosts, JSON or form, PIN flow, extras on every URL, no refresh.
  static var simkl: ProviderConfiguration {
    ProviderConfiguration(
      id: "simkl", name: "Simkl", clientID: "simkl-client", flows: [.pkce, .pin],
      authorizationEndpoint: url("/web/oauth/authorize"), tokenEndpoint: url("/api/oauth/token"),
      pinEndpoint: url("/api/oauth/pin"), tokenRequestEncoding: .json,
      extraRequestParameters: [
        "client_id": "simkl-client", "app-name": "authtui", "app-version": "0.1.0",
      ], extraRequestParametersLocation: .query)
  }

  /// Hivesigner's shape: JSON exchange, scope=posting.
  static var hivesigner: ProviderConfiguration {
    ProviderConfiguration(
      id: "hivesigner", name: "Hivesigner", clientID: "authtui.app", scopes: ["posting"],
      authorizationEndpoint: url("/oauth2/authorize"), tokenEndpoint: url("/api/oauth2/token"),
      tokenRequestEncoding: .json)
  }

  /// A standards-complete OIDC provider with every flow endpoint.
  static var oidc: ProviderConfiguration {
    ProviderConfiguration(
      id: "work", name: "Work SSO", issuer: host, clientID: "abc123", flows: [.pkce, .device],
      scopes: ["openid", "profile", "offline_access"],
      authorizationEndpoint: url("/authorize"), tokenEndpoint: url("/token"),
      deviceAuthorizationEndpoint: url("/device"), revocationEndpoint: url("/revoke"))
  }
}
