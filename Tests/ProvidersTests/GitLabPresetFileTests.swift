import AuthCore
import Foundation
import Providers
import TestSupport
import Testing

/// The `gitlab` preset as data, and the instance URL as its one field for a self-managed
/// GitLab: a user file that sets `issuer` moves discovery, and so every endpoint, there.
extension ProviderCatalogTests {
  @Test func findsGitLabComThroughDiscoveryWithTheBrowserAndDeviceFlows() throws {
    try write("gitlab.json", #"{ "client_id": "app-id" }"#)
    let entry = try #require(ProviderCatalog.load(from: location).entry("gitlab"))
    #expect(entry.problems.isEmpty)
    #expect(entry.needsDiscovery)
    let configuration = try #require(entry.configuration)
    #expect(configuration.name == "GitLab")
    #expect(configuration.issuer == "https://gitlab.com")
    #expect(configuration.usesDiscovery)
    #expect(configuration.flows == [.pkce, .device])
    // Every endpoint comes from https://gitlab.com/.well-known/openid-configuration.
    #expect(configuration.tokenEndpoint == nil && configuration.revocationEndpoint == nil)
    #expect(!configuration.scopes.contains("offline_access"))
    #expect(configuration.scopes.contains("write_repository"))
    #expect(configuration.identity?.source == .userinfo)
    #expect(configuration.identity?.labelPaths.first == "nickname")
  }

  @Test func pointsASecondProviderIDAtASelfManagedInstanceByItsURLAlone() throws {
    try write("gitlab.json", #"{ "client_id": "com-app" }"#)
    try write(
      "work-gitlab.json",
      #"{ "preset": "gitlab", "name": "Work GitLab", "issuer": "https://gitlab.example.com", "client_id": "work-app" }"#
    )
    let catalog = ProviderCatalog.load(from: location)
    let work = try #require(catalog.entry("work-gitlab")?.configuration)
    #expect(work.issuer == "https://gitlab.example.com")
    #expect(work.name == "Work GitLab")
    #expect(work.clientID == "work-app")
    #expect(work.flows == [.pkce, .device])
    #expect(catalog.entry("gitlab")?.configuration?.issuer == "https://gitlab.com")
  }

  @Test func tellsWhatToRegisterAtGitLab() throws {
    let message = try firstProblem(of: "gitlab")
    #expect(
      message.hasPrefix(
        "built-in preset gitlab: client_id: no client_id: register an application at "
          + "https://gitlab.com/-/user_settings/applications (add an application that is not "
          + "confidential, with the redirect URI http://127.0.0.1/callback"))
  }
}
