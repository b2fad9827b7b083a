import Foundation
import Loopback

extension ProviderConfiguration {
  /// The address that ends the user's session at the provider (OIDC RP-Initiated Logout 1.0
  /// §2), to open in the browser on sign-out; nil when the provider has no
  /// `end_session_endpoint`.
  ///
  /// Carries `id_token_hint` (the account's last id_token, when kept), `client_id`, and
  /// `post_logout_redirect_uri` with `state` only when the configuration registers one (an
  /// unregistered redirect makes providers refuse the logout), then the provider's per-request
  /// parameters. The id_token is a statement about the user, not a credential, and the
  /// specification puts it in this URL; the URL is still not for logs.
  public func endSessionURL(idTokenHint: String?, state: String? = nil) throws(AuthError) -> URL? {
    guard endSessionEndpoint != nil else { return nil }
    let endpoint = try endpoint(\.endSessionEndpoint, named: "end_session_endpoint")
    var parameters: [FormEncoding.Pair] = []
    if let idTokenHint, !idTokenHint.isEmpty {
      parameters.append(("id_token_hint", idTokenHint))
    }
    parameters.append(("client_id", clientID))
    if let postLogoutRedirectURI {
      parameters.append(("post_logout_redirect_uri", postLogoutRedirectURI.absoluteString))
      if let state { parameters.append(("state", state)) }
    }
    return endpoint.appendingQuery(
      withExtraParameters(parameters, extras: extraRequestParameters))
  }
}
