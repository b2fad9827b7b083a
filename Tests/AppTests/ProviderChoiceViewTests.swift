import App
import Foundation
import Terminal
import Testing

/// The provider choice: names are not cut while the screen has room for them.
@Suite struct ProviderChoiceViewTests {
  static let long = ProviderSummary(
    id: "example", name: "Example Identity Provider GmbH", methods: [.pkce, .device],
    canRevoke: true)

  @Test func aLongProviderNameIsShownWholeWhenThereIsRoom() {
    var driver = Driver(providers: Fixtures.providers + [Self.long])
    driver.press(.character("a"))
    let row = driver.frame.textLines().first { $0.contains("Example") } ?? ""
    #expect(row.contains("Example Identity Provider GmbH Browser, Device code"), "\(row)")
  }

  @Test func aLongProviderNameIsCutVisiblyOnANarrowScreen() {
    var driver = Driver(
      providers: Fixtures.providers + [Self.long], size: Size(rows: 16, columns: 50))
    driver.press(.character("a"))
    let row = driver.frame.textLines().first { $0.contains("Example") } ?? ""
    #expect(row.contains("Example Identity Pr… Browser"), "\(row)")
  }
}
