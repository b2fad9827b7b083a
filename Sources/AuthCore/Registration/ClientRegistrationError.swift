import Foundation

/// Why a dynamic client registration (RFC 7591) or its management (RFC 7592) did not give its
/// result. Transport failures and server errors stay the general `AuthError` cases; these are
/// the registration's own answers. Every message says what to do instead, which is always to
/// get a client id another way and give it to authtui.
public enum ClientRegistrationError: Error, Sendable, Equatable {
  /// The server refused the registration with an error of RFC 7591 §3.2.2
  /// (`invalid_redirect_uri`, `invalid_client_metadata`, `invalid_software_statement`,
  /// `unapproved_software_statement`, or another code), and its description.
  case refused(code: String, description: String?)
  /// The registration endpoint answered 401 or 403: it registers only clients that bring an
  /// initial access token (RFC 7591 §3), which authtui does not have.
  case initialAccessTokenRequired(status: Int)
  /// The answer was not a usable client information response (RFC 7591 §3.2.1).
  case malformedResponse(String)
  /// The server registered authtui as a client that authenticates with a method authtui
  /// cannot use (`token_endpoint_auth_method`), though a public client (`none`) was asked for.
  case unusableAuthMethod(String)
  /// The server registered none of the redirect URIs asked for.
  case redirectURINotRegistered(String)
  /// The registration could not be deleted (RFC 7592 §2.3): the server answered with this
  /// HTTP status (401: the token is no longer valid, or the registration is gone).
  case deletionRefused(status: Int)

  /// The same as `message`.
  public var description: String { message }

  /// What went wrong and what to do.
  public var message: String {
    let byHand =
      "register a public (native) client with the server's administrator and give authtui "
      + "its client id"
    switch self {
    case .refused(let code, let description):
      let detail = " (\(code)\(description.map { ": \($0)" } ?? ""))"
      switch code {
      case "invalid_redirect_uri":
        return "The server refused the loopback redirect URI authtui registers\(detail); "
          + byHand + " with that redirect URI allowed."
      case "invalid_client_metadata":
        return "The server refused authtui's registration\(detail): it wants client details "
          + "authtui does not send; " + byHand + "."
      case "invalid_software_statement", "unapproved_software_statement":
        return "The server registers only software with a statement it approved\(detail); "
          + byHand + "."
      default:
        return "The server refused authtui's registration\(detail); " + byHand + "."
      }
    case .initialAccessTokenRequired(let status):
      return "The server's registration endpoint wants an initial access token (HTTP "
        + "\(status)), which authtui does not have; " + byHand + "."
    case .malformedResponse(let reason):
      return "The server's answer to authtui's registration was unusable (\(reason)); "
        + byHand + "."
    case .unusableAuthMethod(let method):
      return "The server registered authtui as a confidential client (\(method)) although a "
        + "public client was asked for, so authtui cannot use it; " + byHand + "."
    case .redirectURINotRegistered(let uri):
      return "The server did not register the redirect URI \(uri) authtui asked for; "
        + byHand + " with that redirect URI allowed."
    case .deletionRefused(let status):
      return "The server did not delete authtui's registration (HTTP \(status): the "
        + "registration may be gone already); delete the client at the server by hand if it "
        + "is still listed there."
    }
  }

  /// A stable snake_case name for scripts.
  public var code: String {
    switch self {
    case .refused(let code, _): return code
    case .initialAccessTokenRequired: return "initial_access_token_required"
    case .malformedResponse: return "malformed_registration_response"
    case .unusableAuthMethod: return "unusable_auth_method"
    case .redirectURINotRegistered: return "invalid_redirect_uri"
    case .deletionRefused: return "registration_deletion_refused"
    }
  }
}
