import Foundation

/// Which accounts one tenant segment of the Microsoft profile signs in, and the issuer each
/// gets. A person typing a user name that starts with `personal` signs in with a personal
/// Microsoft account (tenant `9188040d-…`, Microsoft's consumer tenant); any other name is a
/// work account of the sandbox's organization.
struct MicrosoftTenancy: Sendable {
  typealias Paths = SandboxPaths.Microsoft

  /// The segment of the path: `common`, `organizations`, `consumers`, a tenant id or a domain.
  let segment: String

  /// The tenant of `username`'s account.
  static func tenant(of username: String) -> String {
    username.lowercased().hasPrefix("personal") ? Paths.consumerTenant : Paths.organizationTenant
  }

  /// The issuer the segment's discovery document publishes: the template itself for `common`
  /// and `organizations`, one tenant's issuer otherwise (a domain names its tenant's id).
  var publishedIssuerPath: String {
    switch segment {
    case "common", "organizations": return Paths.issuer("{tenantid}")
    case "consumers": return Paths.issuer(Paths.consumerTenant)
    case Paths.organizationDomain: return Paths.issuer(Paths.organizationTenant)
    default: return Paths.issuer(segment)
    }
  }

  /// Nil when an account of `tenant` may sign in here, else what the page says.
  func refusal(forTenant tenant: String) -> String? {
    switch segment {
    case "common":
      return nil
    case "consumers":
      return tenant == Paths.consumerTenant
        ? nil
        : "This endpoint (consumers) accepts only personal Microsoft accounts; "
          + "sign in with a name starting with \"personal\"."
    default:
      return tenant == Paths.consumerTenant
        ? "Personal Microsoft accounts cannot sign in to this endpoint "
          + "(\(segment)); use a work or school account."
        : nil
    }
  }
}
