import AuthCore
import Foundation

/// What a user registers at a provider to get a client id, as `authtui providers` and the UI's
/// provider list and setup form show it: the application type, the redirect URI (from
/// `redirect_port` and `redirect_path`), the post-logout address when the file relies on one,
/// the scopes, and where to register.
public struct RegistrationGuide: Sendable, Equatable {
  /// The kind of application to create (`application_type`), as the provider names it.
  public var applicationType: String?
  /// The redirect URI to register, for a browser (PKCE) sign-in: `http://127.0.0.1:8765/callback`,
  /// or with no fixed port `http://127.0.0.1/callback` (`anyPort`); nil without the browser flow.
  public var redirectURI: String?
  /// True when the redirect URI has no fixed port: authtui listens on a free one each time,
  /// which loopback redirect URIs allow (RFC 8252 §7.3).
  public var anyPort: Bool
  /// The post-logout redirect URI to register, when the provider file relies on one.
  public var postLogoutRedirectURI: String?
  /// The scopes asked for (`scopes`); empty when the provider takes none.
  public var scopes: [String]
  /// Where to register (`registration_url`).
  public var registrationURL: String?
  /// The provider's own words on what to register (`registration_note`).
  public var note: String?

  /// A guide of the given facts.
  public init(
    applicationType: String? = nil, redirectURI: String? = nil, anyPort: Bool = false,
    postLogoutRedirectURI: String? = nil, scopes: [String] = [], registrationURL: String? = nil,
    note: String? = nil
  ) {
    self.applicationType = applicationType
    self.redirectURI = redirectURI
    self.anyPort = anyPort
    self.postLogoutRedirectURI = postLogoutRedirectURI
    self.scopes = scopes
    self.registrationURL = registrationURL
    self.note = note
  }

  /// The guide of a merged provider file offering `flows`.
  init(_ file: ProviderFile, flows: [SignInFlow]) {
    let path = file.redirectPath ?? "/callback"
    let redirect = "http://127.0.0.1" + (file.redirectPort.map { ":\($0)" } ?? "") + path
    let browser = flows.contains(.pkce)
    var postLogout = file.postLogoutRedirectURI?.absoluteString
    if postLogout == nil, browser, file.postLogoutUsesRedirectURI == true {
      postLogout = redirect
    }
    self.init(
      applicationType: file.applicationType, redirectURI: browser ? redirect : nil,
      anyPort: browser && file.redirectPort == nil, postLogoutRedirectURI: postLogout,
      scopes: file.scopes ?? [],
      registrationURL: file.registrationURL, note: file.registrationNote)
  }

  /// The facts as `label: value` lines (`application type`, `redirect URI`, `post-logout
  /// redirect URI`, `scopes`), those the provider file gives, in that order.
  public var facts: [(label: String, value: String)] {
    var facts: [(String, String)] = []
    if let applicationType { facts.append(("application type", applicationType)) }
    let port = anyPort ? " (any port)" : ""
    if let redirectURI { facts.append(("redirect URI", redirectURI + port)) }
    if let postLogoutRedirectURI {
      let same = postLogoutRedirectURI == redirectURI ? port : ""
      facts.append(("post-logout redirect URI", postLogoutRedirectURI + same))
    }
    facts.append(("scopes", scopes.isEmpty ? "none asked for" : scopes.joined(separator: " ")))
    return facts
  }
}

extension ProviderEntry {
  /// What to register at the provider for a client id of one's own.
  public var registration: RegistrationGuide {
    RegistrationGuide(file, flows: flows)
  }
}
