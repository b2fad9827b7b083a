import AuthCore
import Foundation
import Providers
import TestSupport
import Testing

/// The `google` preset as data, and `client_secret`: accepted only where the merged file
/// declares `client_secret_required`, and never in a message.
extension ProviderCatalogTests {
  static let googleSecret = "GOCSPX-not-really-secret"

  @Test func takesTheDesktopAppsClientSecretAndAsksForOfflineAccessTheGoogleWay() throws {
    try write(
      "google.json",
      #"{ "client_id": "123.apps.googleusercontent.com", "client_secret": "\#(Self.googleSecret)" }"#
    )
    let entry = try #require(ProviderCatalog.load(from: location).entry("google"))
    #expect(entry.problems.isEmpty)
    let configuration = try #require(entry.configuration)
    #expect(configuration.issuer == "https://accounts.google.com")
    #expect(configuration.flows == [.pkce])
    #expect(configuration.clientSecret == ClientSecret(Self.googleSecret))
    #expect(!configuration.scopes.contains("offline_access"))
    #expect(configuration.extraAuthorizeParameters["access_type"] == "offline")
    #expect(configuration.identity?.labelPaths.first == "email")
  }

  @Test func asksForTheSecretWhenGooglesFileHasOnlyTheClientID() throws {
    try write("google.json", #"{ "client_id": "123.apps.googleusercontent.com" }"#)
    let entry = try #require(ProviderCatalog.load(from: location).entry("google"))
    #expect(entry.configuration == nil)
    #expect(
      entry.problems.map(\.description) == [
        "\(dir)/google.json: client_secret: Google wants the client secret of your installed "
          + "(Desktop) application at its token endpoint; add \"client_secret\": \"…\" from the "
          + "application's credentials to \(dir)/google.json"
      ])
  }

  @Test func refusesAClientSecretOverAPresetThatDoesNotDeclareOne() throws {
    try write("simkl.json", #"{ "client_id": "x", "client_secret": "\#(Self.googleSecret)" }"#)
    try write(
      "work.json",
      #"{ "preset": "oidc", "issuer": "https://id.example.com", "client_id": "x", "client_secret": "\#(Self.googleSecret)" }"#
    )
    let catalog = ProviderCatalog.load(from: location)
    for id in ["simkl", "work"] {
      let entry = try #require(catalog.entry(try ProviderID(id)))
      #expect(entry.configuration == nil)
      #expect(
        entry.problems.map(\.description) == [
          "\(dir)/\(id).json: client_secret: provider \(id) takes no client secret: authtui signs in as "
            + "a public client; remove \"client_secret\" from \(dir)/\(id).json (only a preset "
            + "that declares \"client_secret_required\", such as google, accepts one)"
        ])
      #expect(!entry.problems.map(\.description).joined().contains(Self.googleSecret))
    }
  }

  @Test func aTestingAppsRefreshTokenLifetimeIsTheUsersToSayAndZeroTakesItBack() throws {
    // The preset says nothing: a published app's refresh tokens have no end by age.
    try write(
      "google.json",
      #"{ "client_id": "1.apps.googleusercontent.com", "client_secret": "s", "refresh_token_lifetime": 604800 }"#
    )
    try write(
      "work.json",
      #"{ "preset": "oidc", "issuer": "https://id.example.com", "client_id": "x", "refresh_token_lifetime": 0 }"#
    )
    try write(
      "bad.json",
      #"{ "preset": "oidc", "issuer": "https://id.example.com", "client_id": "x", "refresh_token_lifetime": -1 }"#
    )
    let catalog = ProviderCatalog.load(from: location)
    #expect(try #require(catalog.entry("google")?.configuration).refreshTokenLifetime == 604_800)
    #expect(try #require(catalog.entry("work")?.configuration).refreshTokenLifetime == nil)
    #expect(catalog.entry("bad") == nil)
    #expect(
      catalog.skippedFiles.map(\.description) == [
        "\(dir)/bad.json:1: refresh_token_lifetime: must be between 0 and 315360000, not -1"
      ])
  }
}
