import AuthCore
import Foundation
import Providers
import TestSupport
import Testing

/// The provider file's `par` (RFC 9126) and `dpop` (RFC 9449): `auto` unless a file says
/// otherwise, a preset's value overridden by a user file, and a wrong value reported with its
/// line and the values to use.
extension ProviderCatalogTests {
  @Test func parAndDPoPAreAutoUnlessAFileSaysOtherwise() throws {
    try write(
      "plain.json", #"{ "preset": "oidc", "issuer": "https://a.example", "client_id": "x" }"#)
    try write(
      "strict.json",
      #"{ "preset": "oidc", "issuer": "https://b.example", "client_id": "x", "par": "required", "dpop": "required" }"#
    )
    try write(
      "none.json",
      #"{ "preset": "oidc", "issuer": "https://c.example", "client_id": "x", "par": "off", "dpop": "off" }"#
    )
    let catalog = ProviderCatalog.load(from: location)
    let plain = try #require(catalog.entry("plain")?.configuration)
    #expect(plain.pushedAuthorization == .auto)
    #expect(plain.dpop == .auto)
    let strict = try #require(catalog.entry("strict")?.configuration)
    #expect(strict.pushedAuthorization == .required)
    #expect(strict.dpop == .required)
    let none = try #require(catalog.entry("none")?.configuration)
    #expect(none.pushedAuthorization == .off)
    #expect(none.dpop == .off)
  }

  @Test func aUserFileOverridesParAndDPoPOfTheFileItBuildsOn() {
    var base = ProviderFile()
    base.pushedAuthorization = .required
    base.dpop = .off
    var top = ProviderFile()
    top.dpop = .required
    let merged = top.overriding(base)
    #expect(merged.pushedAuthorization == .required)
    #expect(merged.dpop == .required)
  }

  @Test func reportsAWrongParOrDPoPWithItsLineAndTheValuesToUse() {
    let text = "{ \"id\": \"x\", \"client_id\": \"x\",\n  \"par\": \"yes\",\n  \"dpop\": true }"
    #expect(
      ProviderFile.problems(in: text, file: "x.json") == [
        "x.json:2: par: must be \"auto\" or \"required\" or \"off\", not \"yes\"",
        "x.json:3: dpop: must be a string in double quotes, not true or false",
      ])
  }
}
