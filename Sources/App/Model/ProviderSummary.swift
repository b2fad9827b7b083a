import AuthCore
import Providers

/// A provider as the sign-in screens show it: its flows, and what stops it from working.
public struct ProviderSummary: Sendable, Equatable, Identifiable {
  /// The id used in `PROVIDER/LABEL` (`simkl`).
  public var id: ProviderID
  /// The human name (`Simkl`).
  public var name: String
  /// The flows the provider offers, in the order the user should see them.
  public var methods: [SignInFlow]
  /// True when a sign-in can start (a `client_id`, the endpoints its flows need).
  public var isUsable: Bool
  /// What stops (or would stop) the provider from working, each with its fix and, where the
  /// problem is in a file, `file:line:` first.
  public var problems: [String]
  /// True when the provider has a revocation endpoint (RFC 7009), so signing out revokes the
  /// tokens at the provider too; nil when only the provider's discovery document can tell.
  public var canRevoke: Bool?
  /// True when the provider has a sign-out page (`end_session_endpoint`), so a sign-out can
  /// end its browser session too; nil when only its discovery document can tell.
  public var hasSignOutPage: Bool?
  /// The redirect port when the provider's registration fixes it, so a user on SSH can forward
  /// it for a browser sign-in (`ssh -L PORT:127.0.0.1:PORT`); nil when any port will do.
  public var fixedRedirectPort: Int?
  /// What the setup form asks for when the provider has no client id yet (or, for Google, no
  /// client secret); nil when it has what it needs.
  public var setup: ProviderSetup?
  /// Where the user withdraws authtui's access at the provider (`access_settings_url`), for
  /// the sign-out of a provider that cannot revoke tokens from here.
  public var accessSettingsURL: String?

  /// Describes a provider.
  public init(
    id: ProviderID, name: String, methods: [SignInFlow], isUsable: Bool = true,
    problems: [String] = [], canRevoke: Bool? = false, fixedRedirectPort: Int? = nil,
    setup: ProviderSetup? = nil, accessSettingsURL: String? = nil, hasSignOutPage: Bool? = false
  ) {
    self.hasSignOutPage = hasSignOutPage
    self.accessSettingsURL = accessSettingsURL
    self.id = id
    self.name = name
    self.methods = methods
    self.isUsable = isUsable
    self.problems = problems
    self.canRevoke = canRevoke
    self.fixedRedirectPort = fixedRedirectPort
    self.setup = setup
  }
}

extension ProviderSummary {
  /// What the sign-in screens show of a catalog entry.
  public init(_ entry: ProviderEntry) {
    let configuration = entry.configuration
    // What the merged file says; what it leaves to discovery is known once discovered.
    let discovers = entry.file.issuer != nil && entry.file.usesDiscovery != false
    let unknown: Bool? = discovers ? nil : false
    let canRevoke: Bool? = configuration?.revocationEndpoint != nil ? true : unknown
    let hasSignOutPage: Bool? = configuration?.endSessionEndpoint != nil ? true : unknown
    self.init(
      id: entry.id, name: entry.name, methods: entry.flows, isUsable: configuration != nil,
      problems: entry.problems.map(\.description), canRevoke: canRevoke,
      fixedRedirectPort: configuration?.redirectPort.map(Int.init), setup: entry.setup,
      accessSettingsURL: entry.file.accessSettingsURL, hasSignOutPage: hasSignOutPage)
  }
}
