import AuthCore
import Foundation
import JSON
import Loopback

/// Pushed authorization requests (RFC 9126), when the settings' `par` is `offered` or
/// `required`: the PAR endpoint checks a request as the authorization endpoint would and keeps
/// it under a `request_uri` that works once, for the client that pushed it, for `par_lifetime`
/// seconds; the authorization endpoint then takes that reference instead of the parameters.
extension OpenIDAuthority {
  /// `POST par` (RFC 9126 §2.1): a form from a known client, answered `201` with
  /// `request_uri` and `expires_in` (§2.2), or a JSON error (§2.3).
  mutating func pushAuthorization(_ request: HTTPRequest, context: inout ProviderContext)
    -> HTTPResponse
  {
    let fields: RequestFields
    let clientID: String
    switch clientRequest(request) {
    case .success(let body, let id): (fields, clientID) = (body, id)
    case .failure(let refusal):
      context.count(.refusedPushedRequests)
      return refusal
    }
    func refuse(_ error: String, _ description: String) -> HTTPResponse {
      context.count(.refusedPushedRequests)
      return Answers.oauthError(error, description)
    }
    switch checkAuthorization(fields, clientID: clientID, pushed: true, context: context) {
    case .page(_, let text):
      return refuse("invalid_request", text)
    case .refused(let error, let description):
      return refuse(error, description)
    case .accepted(let authorization):
      let lifetime = max(1, context.settings.pushedRequestLifetime)
      let uri = pushedRequests.add(
        authorization, clientID: clientID, lifetime: lifetime, now: context.now)
      context.count(.pushedRequests)
      var response = Answers.json(
        ["request_uri": .string(uri), "expires_in": .int(lifetime)], status: 201)
      response.headers.append(("Cache-Control", "no-store"))
      return response
    }
  }

  /// The authorization endpoint given a `request_uri` (RFC 9126 §4): the pushed request it
  /// stands for, used up, shown for consent. The URL may repeat `response_type`, `scope` and
  /// `redirect_uri` (OpenID Connect Core §6.2), which must then be the pushed ones; it may not
  /// carry `state`, `nonce` or the PKCE challenge, whose only place is the push. A reference
  /// that is unknown, used, expired or another client's gets an error page: no redirect URI
  /// is known to be the client's.
  mutating func authorizePushed(
    _ fields: RequestFields, clientID: String, context: inout ProviderContext
  ) -> HTTPResponse {
    func page(_ title: String, _ text: String) -> HTTPResponse {
      Pages.message(provider: profileName, title: title, text: text, status: 400)
    }
    if let leaked = ["state", "nonce", "code_challenge", "code_challenge_method"].first(where: {
      fields.names.contains($0)
    }) {
      return page(
        "Parameter outside the pushed request",
        "\(leaked) belongs in the pushed request only; the address gives client_id and "
          + "request_uri (RFC 9126 §4).")
    }
    let authorization: AuthorizationRequest
    switch pushedRequests.take(fields["request_uri"] ?? "", clientID: clientID, now: context.now)
    {
    case .unknown:
      return page(
        "Sign-in request not found",
        "This request_uri is unknown, already used or expired; start again from the app.")
    case .otherClient:
      return page("Sign-in request not found", "This request_uri was pushed by another client.")
    case .request(let pushed):
      authorization = pushed
    }
    let repeated: [(String, String)] = [
      ("response_type", "code"), ("redirect_uri", authorization.redirectURI),
      ("scope", authorization.scopes.joined(separator: " ")),
    ]
    for (name, pushedValue) in repeated {
      if let value = fields[name], value != pushedValue {
        return page(
          "Request does not match", "\(name) differs from the pushed request's (RFC 9126 §4).")
      }
    }
    let id = pending.add(authorization, now: context.now)
    return Pages.consent(consentPage(for: authorization, id: id))
  }
}
