/// One provider the sandbox reproduces, each on its own path prefix.
public enum SandboxProfile: String, Sendable, CaseIterable, Codable {
  /// Simkl: consent page under `/simkl-web/`, API under `/simkl-api/` (two hosts in real life).
  case simkl
  /// Hivesigner, under `/hivesigner/`.
  case hivesigner
  /// Muhajir Studio, under `/muhajir/`.
  case muhajir
  /// A standards-complete OpenID Connect provider, under `/oidc/`.
  case oidc
  /// GitHub: the device flow under `/github/`, the REST API under `/github-api/` (two hosts).
  case github
  /// GitLab.com, under `/gitlab/`.
  case gitlab
  /// A self-managed GitLab without the device grant, under `/gitlab-self-managed/`.
  case gitlabSelfManaged = "gitlab-self-managed"
  /// Google, under `/google/`.
  case google

  /// The client secret of the `google` profile's installed-application client: Google hands
  /// one to every Desktop-app client and wants it at the token endpoint, though it is no
  /// secret (anyone with the program has it).
  public static let googleClientSecret = "GOCSPX-sandbox-desktop-secret"
  /// The Microsoft identity platform, under `/microsoft/{tenant}/…` (`login.microsoftonline.com`).
  case microsoft
  /// An OpenID provider that lets clients register themselves (RFC 7591, RFC 7592), under
  /// `/dynamic/`, with part of its metadata only in RFC 8414's document at
  /// `/.well-known/oauth-authorization-server/dynamic`: what `authtui providers add` meets.
  case dynamic

  /// The client id every profile accepts without registration.
  public static let defaultClientID = "sandbox-client"

  /// The profile serving `path`, if any: under one of its prefixes, or its RFC 8414 metadata
  /// in the path-insertion form (`/.well-known/oauth-authorization-server/dynamic`).
  static func serving(_ path: String) -> SandboxProfile? {
    for profile in allCases where profile.prefixes.contains(where: { path.hasPrefix($0 + "/") }) {
      return profile
    }
    return allCases.first { $0.insertedMetadataPaths.contains(path) }
  }

  /// The paths of RFC 8414 §3.1's path-insertion form the profile serves.
  var insertedMetadataPaths: [String] {
    self == .dynamic ? [SandboxPaths.Dynamic.authorizationServerMetadata] : []
  }

  /// The path prefixes of the profile (two for Simkl's two hosts).
  public var prefixes: [String] {
    switch self {
    case .simkl: return ["/simkl-web", "/simkl-api"]
    case .hivesigner: return ["/hivesigner"]
    case .muhajir: return ["/muhajir"]
    case .oidc: return ["/oidc"]
    case .github: return ["/github", "/github-api"]
    case .gitlab: return [SandboxPaths.gitLab.prefix]
    case .gitlabSelfManaged: return [SandboxPaths.gitLabSelfManaged.prefix]
    case .google: return ["/google"]
    case .microsoft: return ["/microsoft"]
    case .dynamic: return [SandboxPaths.Dynamic.issuer]
    }
  }

  /// The provider's name as its pages show it.
  var displayName: String {
    switch self {
    case .simkl: return "Simkl"
    case .hivesigner: return "Hivesigner"
    case .muhajir: return "Muhajir Studio"
    case .oidc: return "Sandbox OpenID Provider"
    case .github: return "GitHub"
    case .gitlab: return "GitLab"
    case .gitlabSelfManaged: return "GitLab (self-managed)"
    case .google: return "Google"
    case .microsoft: return "Microsoft"
    case .dynamic: return "Sandbox Dynamic Provider"
    }
  }

  /// The client ids the profile knows. OIDC has a second client whose id_tokens are ES256.
  public var clientIDs: [String] {
    switch self {
    case .oidc: return [Self.defaultClientID, OIDCClients.es256ClientID]
    case .github: return [Self.defaultClientID, GitHubProfile.deviceFlowDisabledClientID]
    default: return [Self.defaultClientID]
    }
  }
}
