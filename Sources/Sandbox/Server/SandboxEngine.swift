import AuthCore
import Foundation
import Isolation
import Loopback

/// All of the sandbox's mutable state, in one actor: the clock offset, counters, faults,
/// settings, and each profile's codes, tokens and keys. Requests are answered one at a time,
/// on a queue of the engine's own (see `QueueExecutor`).
actor SandboxEngine {
  private let executor = QueueExecutor(label: "authtui.sandbox.engine")
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  let configuration: SandboxConfiguration
  private(set) var baseURL = ""
  var clockOffset: TimeInterval = 0
  var stats = SandboxStats()
  var faults = FaultPlan()
  /// `hold` faults taken, and how many of them were released: hold `n` is released once
  /// `holdsReleased` reaches `n`.
  private var holdsTaken = 0
  private var holdsReleased = 0
  var settings: [SandboxProfile: ProfileSettings]
  var simkl = SimklProfile()
  var hivesigner = HivesignerProfile()
  var muhajir: MuhajirProfile
  var oidc: OIDCProfile
  var github = GitHubProfile()
  var gitlab: GitLabProfile
  var gitlabSelfManaged: GitLabProfile
  var google: GoogleProfile
  var microsoft: MicrosoftProfile
  var dynamic: DynamicProfile

  init(configuration: SandboxConfiguration) {
    self.configuration = configuration
    self.settings = configuration.initialSettings()
    self.muhajir = MuhajirProfile(signingKeys: configuration.signingKeys)
    self.oidc = OIDCProfile(signingKeys: configuration.signingKeys)
    (gitlab, gitlabSelfManaged, google) = Self.newerProfiles(configuration)
    self.microsoft = MicrosoftProfile(signingKeys: configuration.signingKeys)
    self.dynamic = DynamicProfile(signingKeys: configuration.signingKeys)
  }

  func attach(baseURL: String) {
    self.baseURL = baseURL
  }

  /// The sandbox's now: the configured clock (the real one unless a test stops it) plus the
  /// offset.
  var now: Date { configuration.clock().addingTimeInterval(clockOffset) }

  func settings(for profile: SandboxProfile) -> ProfileSettings {
    settings[profile] ?? .defaults(for: profile)
  }

  /// Takes one use of a fault waiting for `path`, counting it; a `hold` comes with its number,
  /// which `isReleased` answers for.
  func takeFault(for path: String) -> (kind: SandboxFault.Kind, hold: Int)? {
    guard let kind = faults.take(for: path) else { return nil }
    stats.record(.faults, profile: SandboxProfile.serving(path))
    guard case .hold = kind else { return (kind, 0) }
    holdsTaken += 1
    return (kind, holdsTaken)
  }

  /// True once hold number `hold` was released (`POST /_sandbox/release`).
  func isReleased(_ hold: Int) -> Bool {
    hold <= holdsReleased
  }

  /// Releases every request held so far; returns how many were still held.
  func releaseHolds() -> Int {
    defer { holdsReleased = holdsTaken }
    return holdsTaken - holdsReleased
  }

  /// Answers a request for a profile (or the index page).
  func respond(to request: HTTPRequest) -> HTTPResponse {
    guard let profile = SandboxProfile.serving(request.path) else {
      return request.path == "/" ? indexPage() : Answers.notFound(request.path)
    }
    var context = ProviderContext(now: now, baseURL: baseURL, settings: settings(for: profile))
    let response: HTTPResponse
    switch profile {
    case .simkl: response = simkl.respond(to: request, context: &context)
    case .hivesigner: response = hivesigner.respond(to: request, context: &context)
    case .muhajir: response = muhajir.respond(to: request, context: &context)
    case .oidc: response = oidc.respond(to: request, context: &context)
    case .github: response = github.respond(to: request, context: &context)
    case .gitlab: response = gitlab.respond(to: request, context: &context)
    case .gitlabSelfManaged: response = gitlabSelfManaged.respond(to: request, context: &context)
    case .google: response = google.respond(to: request, context: &context)
    case .microsoft: response = microsoft.respond(to: request, context: &context)
    case .dynamic: response = dynamic.respond(to: request, context: &context)
    }
    stats.record(.requests, profile: profile)
    for event in context.events {
      stats.record(event, profile: profile)
    }
    return response
  }

  /// Makes `profile`'s refresh tokens unusable (every profile's when nil).
  func invalidateRefreshTokens(of profile: SandboxProfile?) -> Int {
    let now = self.now
    var count = 0
    if profile == nil || profile == .muhajir { count += muhajir.invalidateRefreshTokens(now: now) }
    if profile == nil || profile == .oidc { count += oidc.invalidateRefreshTokens(now: now) }
    if profile == nil || profile == .github { count += github.invalidateRefreshTokens(now: now) }
    if profile == nil || profile == .gitlab { count += gitlab.invalidateRefreshTokens(now: now) }
    if profile == nil || profile == .gitlabSelfManaged {
      count += gitlabSelfManaged.invalidateRefreshTokens(now: now)
    }
    if profile == nil || profile == .google { count += google.invalidateRefreshTokens(now: now) }
    if profile == nil || profile == .microsoft {
      count += microsoft.invalidateRefreshTokens(now: now)
    }
    if profile == nil || profile == .dynamic { count += dynamic.invalidateRefreshTokens(now: now) }
    return count
  }

  /// New signing keys for `profile` (the `oidc` and `muhajir` profiles when nil).
  func rotateKeys(of profile: SandboxProfile?) throws -> [SandboxProfile: [String]] {
    var kids: [SandboxProfile: [String]] = [:]
    if profile == nil || profile == .oidc { kids[.oidc] = try oidc.rotateKeys() }
    if profile == nil || profile == .muhajir { kids[.muhajir] = try muhajir.rotateKeys() }
    if profile == nil || profile == .gitlab { kids[.gitlab] = try gitlab.rotateKeys() }
    if profile == nil || profile == .gitlabSelfManaged {
      kids[.gitlabSelfManaged] = try gitlabSelfManaged.rotateKeys()
    }
    if profile == nil || profile == .google { kids[.google] = try google.rotateKeys() }
    if profile == nil || profile == .microsoft { kids[.microsoft] = try microsoft.rotateKeys() }
    if profile == nil || profile == .dynamic { kids[.dynamic] = try dynamic.rotateKeys() }
    return kids
  }

  /// Everything back to how it started.
  func reset() {
    _ = releaseHolds()
    clockOffset = 0
    stats = SandboxStats()
    faults.clear()
    settings = configuration.initialSettings()
    simkl = SimklProfile()
    hivesigner = HivesignerProfile()
    muhajir = MuhajirProfile(signingKeys: configuration.signingKeys)
    oidc = OIDCProfile(signingKeys: configuration.signingKeys)
    github = GitHubProfile()
    (gitlab, gitlabSelfManaged, google) = Self.newerProfiles(configuration)
    microsoft = MicrosoftProfile(signingKeys: configuration.signingKeys)
    dynamic = DynamicProfile(signingKeys: configuration.signingKeys)
  }

  /// The GitLab instances and Google, fresh.
  private static func newerProfiles(_ configuration: SandboxConfiguration) -> (
    GitLabProfile, GitLabProfile, GoogleProfile
  ) {
    let keys = configuration.signingKeys
    return (
      GitLabProfile(
        profile: .gitlab, paths: SandboxPaths.gitLab, offersDeviceGrant: true, signingKeys: keys),
      GitLabProfile(
        profile: .gitlabSelfManaged, paths: SandboxPaths.gitLabSelfManaged,
        offersDeviceGrant: false, signingKeys: keys),
      GoogleProfile(signingKeys: keys)
    )
  }

  private func indexPage() -> HTTPResponse {
    var body = "<p>A local OAuth and OpenID provider emulator. Profiles:</p>\n<ul>\n"
    let entries: [(String, String)] = [
      ("Simkl", SandboxPaths.Simkl.home), ("Hivesigner", SandboxPaths.Hivesigner.authorize),
      ("Muhajir Studio", SandboxPaths.Muhajir.discovery),
      ("OpenID Connect", SandboxPaths.OIDC.discovery),
      ("GitLab", SandboxPaths.gitLab.discovery),
      ("GitLab (self-managed, before 17.1)", SandboxPaths.gitLabSelfManaged.discovery),
      ("Google", SandboxPaths.Google.discovery),
      ("GitHub", SandboxPaths.GitHub.device),
      ("Microsoft", SandboxPaths.Microsoft.discovery("common")),
      ("Dynamic registration (RFC 7591)", SandboxPaths.Dynamic.authorizationServerMetadata),
    ]
    for (name, path) in entries {
      body += "<li>\(name): <a href=\"\(path)\">\(path)</a></li>\n"
    }
    body += "</ul>\n<p>Test hooks: <a href=\"\(SandboxPaths.Hooks.stats)\">"
    body += "\(SandboxPaths.Hooks.stats)</a>.</p>\n"
    return .html(Pages.page(provider: "authtui", title: "Sandbox provider", body: body))
  }
}
