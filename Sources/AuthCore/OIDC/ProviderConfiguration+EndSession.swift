import Foundation
import Loopback

extension ProviderConfiguration {
  /// The address that ends the user's session at the provider (OIDC RP-Initiated Logout 1.0
  /// §2), to open in the browser on sign-out; nil when the provider has no
  /// `end_session_endpoint`.
  ///
  /// Carries `id_token_hint` (the account's last id_token, when kept), `client_id`,
  /// `post_logout_redirect_uri` when there is one to send (`postLogoutReturn`; an unregistered
  /// one makes providers refuse the logout) with `state` when given, then the provider's
  /// per-request parameters. The id_token is a statement about the user, not a credential, and
  /// the specification puts it in this URL; the URL is still not for logs.
  ///
  /// A loopback `post_logout_redirect_uri` is authtui's own landing page: whoever opens the
  /// URL serves it and adds a fresh `state` (`OneTimeRedirect`), so the URL works the same
  /// when the agent built it in another process.
  public func endSessionURL(idTokenHint: String?, state: String? = nil) throws(AuthError) -> URL? {
    guard endSessionEndpoint != nil else { return nil }
    let endpoint = try endpoint(\.endSessionEndpoint, named: "end_session_endpoint")
    var parameters: [FormEncoding.Pair] = []
    if let idTokenHint, !idTokenHint.isEmpty {
      parameters.append(("id_token_hint", idTokenHint))
    }
    parameters.append(("client_id", clientID))
    if let postLogoutReturn {
      parameters.append(("post_logout_redirect_uri", postLogoutReturn.absoluteString))
      if let state { parameters.append(("state", state)) }
    }
    return endpoint.appendingQuery(
      withExtraParameters(parameters, extras: extraRequestParameters))
  }

  /// Where the browser is asked to go after the logout: the provider file's
  /// `post_logout_redirect_uri`, else, when the registration allows it
  /// (`postLogoutUsesRedirectURI`), the sign-in's loopback redirect URI,
  /// `http://127.0.0.1:{redirect_port}{redirect_path}`. Port 0 stands for a provider without
  /// a fixed port (any loopback port, RFC 8252 §7.3): the landing's listener takes a free one
  /// and writes it in. Nil sends none, and the provider keeps the browser.
  public var postLogoutReturn: URL? {
    if let postLogoutRedirectURI { return postLogoutRedirectURI }
    guard postLogoutUsesRedirectURI else { return nil }
    let path = redirectPath.hasPrefix("/") ? redirectPath : "/" + redirectPath
    return URL(string: "http://127.0.0.1:\(redirectPort ?? 0)\(path)")
  }
}
