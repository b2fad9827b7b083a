import Foundation

/// Why the provider's metadata (its discovery document `{issuer}/.well-known/openid-configuration`,
/// OIDC Discovery §4, and its RFC 8414 metadata) could not be used. Transport failures and server errors stay the general
/// `AuthError` cases; these are the document's own problems.
public enum DiscoveryError: Error, Sendable, Equatable {
  /// The configured `issuer` is not an https URL (or http on a loopback host,
  /// `ProviderConfiguration.isLoopbackHost`) without query or fragment (OIDC Discovery §2).
  case invalidIssuer(String)
  /// The configured `issuer` is a URL that cannot be sent to (its port is not one from 1 to
  /// 65535, or its host an IPv6 address, which libcurl under URLSession is not given in a form
  /// it takes): the issuer, and what is wrong with it (the rest of a sentence).
  case unreachableIssuer(String, problem: String)
  /// The configured `issuer` names a user, and perhaps a password, before its host; the
  /// issuer is not repeated, since the password is in it.
  case credentialsInIssuer(IssuerCredentials)
  /// No document at the discovery URL (the HTTP status it answered with), nor RFC 8414
  /// metadata at any of `alsoTried`.
  case documentNotFound(url: String, status: Int, alsoTried: [String] = [])
  /// The document's `issuer` is not exactly the configured one (OIDC Discovery §4.3): a
  /// misconfiguration (often a trailing slash) or an impersonation.
  case issuerMismatch(expected: String, received: String?)
  /// A member the document must have is absent (`jwks_uri`, OIDC Discovery §3).
  case missingMember(String)
  /// A member that must be a URL is not one; the member's name.
  case invalidEndpoint(String)
  /// An endpoint uses plain http off loopback; the member's name.
  case insecureEndpoint(String)
}

extension DiscoveryError: CustomStringConvertible {
  /// One sentence for the user: what went wrong and what to do next.
  public var message: String {
    switch self {
    case .invalidIssuer(let issuer):
      return "The issuer \(issuer) is not an https URL without query or fragment; fix `issuer` "
        + "in the provider file."
    case .unreachableIssuer(let issuer, let problem):
      return "The issuer \(issuer) is not a valid URL: \(problem); fix `issuer` in the provider "
        + "file."
    case .credentialsInIssuer(let credentials):
      return "The issuer in the provider file \(credentials.problem); fix `issuer` there."
    case .documentNotFound(let url, let status, let alsoTried):
      let others =
        alsoTried.isEmpty ? "" : ", nor metadata at " + alsoTried.joined(separator: " or ")
      return "The provider has no discovery document at \(url) (HTTP \(status))\(others); check "
        + "`issuer` in the provider file, or set the endpoints there and `\"discovery\": false`."
    case .issuerMismatch(let expected, let received):
      let named = received.map { "names the issuer \($0)" } ?? "names no issuer"
      return "The provider's discovery document \(named), not \(expected); set `issuer` in the "
        + "provider file to exactly the provider's issuer (a trailing slash counts)."
    case .missingMember(let name):
      return "The provider's discovery document has no `\(name)`; set `\(name)` in the provider "
        + "file."
    case .invalidEndpoint(let name):
      return "The provider's discovery document has an unusable `\(name)`; set `\(name)` in the "
        + "provider file."
    case .insecureEndpoint(let name):
      return "The provider's discovery document gives a plain http `\(name)` (only 127.0.0.1 "
        + "and localhost may use http); set an https `\(name)` in the provider file."
    }
  }

  /// The same as `message`.
  public var description: String { message }

  /// A stable snake_case name for scripts.
  public var code: String {
    switch self {
    case .invalidIssuer: return "invalid_issuer"
    case .credentialsInIssuer: return "credentials_in_issuer"
    case .unreachableIssuer: return "invalid_issuer_address"
    case .documentNotFound: return "discovery_not_found"
    case .issuerMismatch: return "discovery_issuer_mismatch"
    case .missingMember: return "discovery_missing_member"
    case .invalidEndpoint: return "discovery_invalid_endpoint"
    case .insecureEndpoint: return "discovery_insecure_endpoint"
    }
  }
}
