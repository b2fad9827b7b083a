import AuthCore
import Foundation
import Providers
import TestSupport
import Testing

/// `fields` (`{name}` placeholders a user file sets without copying URLs) and
/// `id_token_issuer_fields` (an issuer filled per id_token), with the Microsoft preset as the
/// case that needs them.
extension ProviderCatalogTests {
  var file: String { location.providersDirectory.appendingPathComponent("microsoft.json").path }

  func write(_ text: String) throws {
    try write("microsoft.json", text)
  }

  func microsoft() throws -> ProviderConfiguration {
    let entry = try #require(ProviderCatalog.load(from: location).entry("microsoft"))
    #expect(entry.problems.isEmpty, "\(entry.problems)")
    return try #require(entry.configuration)
  }

  /// Guards `"fields": { "tenant": "common" }` and every `{tenant}` of microsoft.json.
  @Test func theMicrosoftPresetFillsItsTenantFieldWithCommonByDefault() throws {
    try write(#"{ "client_id": "app" }"#)
    let configuration = try microsoft()
    #expect(configuration.issuer == "https://login.microsoftonline.com/common/v2.0")
    #expect(
      configuration.authorizationEndpoint?.absoluteString
        == "https://login.microsoftonline.com/common/oauth2/v2.0/authorize")
    #expect(
      configuration.deviceAuthorizationEndpoint?.absoluteString
        == "https://login.microsoftonline.com/common/oauth2/v2.0/devicecode")
    #expect(
      configuration.endSessionEndpoint?.absoluteString
        == "https://login.microsoftonline.com/common/oauth2/v2.0/logout")
    #expect(configuration.revocationEndpoint == nil)
    #expect(configuration.flows == [.pkce, .device])
  }

  /// Guards `"id_token_issuer_fields": { "tenant": "tid" }` of microsoft.json.
  @Test func theMicrosoftPresetChecksIdTokensAgainstTheIssuerFilledWithTheirTid() throws {
    try write(#"{ "client_id": "app" }"#)
    let template = try #require(try microsoft().issuerTemplate)
    #expect(template.text == "https://login.microsoftonline.com/{tid}/v2.0")
    #expect(template.claim == "tid")
  }

  @Test func aUserFileChangesOnlyTheTenant() throws {
    for tenant in [
      "organizations", "consumers", "contoso.onmicrosoft.com",
      "4b1e6a52-3c8d-4f0e-9a7b-2d5c8e1f0a63",
    ] {
      try write(#"{ "client_id": "app", "fields": { "tenant": "\#(tenant)" } }"#)
      let configuration = try microsoft()
      #expect(configuration.issuer == "https://login.microsoftonline.com/\(tenant)/v2.0")
      #expect(
        configuration.tokenEndpoint?.absoluteString
          == "https://login.microsoftonline.com/\(tenant)/oauth2/v2.0/token")
      #expect(
        configuration.jwksURI?.absoluteString
          == "https://login.microsoftonline.com/\(tenant)/discovery/v2.0/keys")
      // The template keeps its claim, whatever the tenant.
      #expect(
        configuration.issuerTemplate?.text == "https://login.microsoftonline.com/{tid}/v2.0")
    }
  }

  @Test func refusesATenantThatWouldChangeTheURLNamingTheFileAndTheFix() throws {
    for tenant in ["common/../evil", "common?x=1", "a#b", "%2F", "", ".hidden", "two words"] {
      try write(#"{ "client_id": "app", "fields": { "tenant": "\#(tenant)" } }"#)
      let catalog = ProviderCatalog.load(from: location)
      let problem = try #require(catalog.skippedFiles.first, "\(tenant)")
      #expect(
        problem.description
          == "\(file):1: fields.tenant: \"\(tenant)\" cannot be used: a field value is a name or an "
          + "id inside a URL: 1 or more letters, digits, '.', '-' or '_', not starting with '.' "
          + "(no '/', '?', '#', '%' or spaces); set \"fields\": {\"tenant\": \"…\"} to such a value"
      )
    }
  }

  @Test func reportsAPlaceholderWithoutAValue() throws {
    try write(
      #"{ "client_id": "app", "preset": "oidc", "issuer": "https://id.example/{realm}" }"#)
    let entry = try #require(ProviderCatalog.load(from: location).entry("microsoft"))
    #expect(
      entry.problems.map(\.description) == [
        "\(file): fields: {realm} is used but has no value; add \"fields\": {\"realm\": \"…\"} to \(file)"
      ])
    #expect(entry.configuration == nil)
  }

  @Test func refusesIssuerFieldsThatTheIssuerDoesNotUse() throws {
    try write(
      #"{ "client_id": "app", "issuer": "https://login.microsoftonline.com/common/v2.0" }"#)
    let entry = try #require(ProviderCatalog.load(from: location).entry("microsoft"))
    #expect(
      entry.problems.map(\.description) == [
        "\(file): id_token_issuer_fields: \"issuer\" has no {tenant} for the id_token's claim to "
          + "fill; write the issuer with {tenant} where the tenant goes, or remove "
          + "id_token_issuer_fields"
      ])
  }

  @Test func showsTheTenantAmongTheIdentityFieldsReadFromTheIdToken() throws {
    try write(#"{ "client_id": "app" }"#)
    let identity = try #require(try microsoft().identity)
    #expect(identity.source == .idToken)
    #expect(identity.tenantPaths == ["tid"])
  }
}
