import AuthCore
import Loopback

/// The verification page both device flows share (RFC 8628 §3.3; Simkl's PIN page): the person
/// types the code, sees what asks for access, types a name and answers. What an answer leads
/// to differs per provider, so the page hands back the decision instead of acting on it.
struct DeviceVerification {
  /// Where a `POST` to the page got to.
  enum Step {
    /// Show this (the code field again, the approval page, a retry).
    case page(HTTPResponse)
    /// Approved as `username`; the grant is marked approved already.
    case approved(DeviceGrant, username: String)
    /// Denied; the grant is untouched, the provider decides what a denial does.
    case denied(DeviceGrant)
  }

  let provider: String
  /// The page's path, where its forms post back.
  let action: String
  /// What the approval page says to a name that may not sign in here (Microsoft's tenants),
  /// or nil.
  var refusal: (String) -> String? = { _ in nil }
  /// The approval page for a grant.
  let approval: (DeviceGrant) -> Pages.Consent

  /// `GET`: the code field, filled from `?user_code=` (`verification_uri_complete`).
  func entryPage(_ request: HTTPRequest) -> HTTPResponse {
    Pages.codeEntry(provider: provider, action: action, prefill: request.query("user_code"))
  }

  /// `POST`: a code (then the approval page), or a decision.
  func answer(_ request: HTTPRequest, grants: inout DeviceGrants, context: inout ProviderContext)
    -> Step
  {
    let form = RequestFields.body(of: request)
    let userCode = form["user_code"]?.trimmingSpaces() ?? ""
    guard let grant = grants.waiting(userCode: userCode, now: context.now) else {
      return .page(
        Pages.codeEntry(
          provider: provider, action: action, prefill: userCode,
          error: "That code is not valid or has expired. Check the code your device shows.",
          status: 400))
    }
    var page = approval(grant)
    page.action = action
    page.hiddenFields = [("user_code", grant.userCode)]
    switch form["decision"] {
    case nil:
      return .page(Pages.consent(page))
    case "approve":
      guard let username = UserName.validated(form["username"]) else {
        page.error = UserName.rule
        return .page(Pages.consent(page, status: 400))
      }
      if let refused = refusal(username) {
        page.error = refused
        return .page(Pages.consent(page, status: 400))
      }
      _ = grants.decide(userCode: userCode, .approved(username: username), now: context.now)
      context.count(.authorizations)
      return .approved(grant, username: username)
    default:
      context.count(.denials)
      return .denied(grant)
    }
  }
}
