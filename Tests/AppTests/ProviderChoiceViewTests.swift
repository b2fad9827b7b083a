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

  @Test func aProviderNameFromAFileReachesTheScreenWithoutItsControls() {
    // A provider file's "name": an OSC that retitles the window, a bell, and a right-to-left
    // override that would turn the rest of the row around. Each shows as U+FFFD.
    let evil = ProviderSummary(
      id: "evil", name: "Evil\u{1B}]0;title\u{07} \u{202E}Name", methods: [.pkce],
      canRevoke: false)
    var driver = Driver(providers: Fixtures.providers + [evil])
    driver.press(.character("a"))
    let row = driver.frame.textLines().first { $0.contains("Evil") } ?? ""
    #expect(row.contains("Evil\u{FFFD}]0;title\u{FFFD} \u{FFFD}Name"), "\(row)")
    let screen = driver.frame.textLines().joined()
    #expect(!screen.unicodeScalars.contains { TerminalTextProbe.isControl($0) })
  }

  @Test func aLongProviderNameIsCutVisiblyOnANarrowScreen() {
    var driver = Driver(
      providers: Fixtures.providers + [Self.long], size: Size(rows: 16, columns: 50))
    driver.press(.character("a"))
    let row = driver.frame.textLines().first { $0.contains("Example") } ?? ""
    #expect(row.contains("Example Identity Pr… Browser"), "\(row)")
  }

  @Test func providersAreListedByTheNameShownWhateverItsCaseThenById() throws {
    let providers = [
      ProviderSummary(id: "acme", name: "Zeta Corp", methods: [.pkce]),
      ProviderSummary(id: "corp", name: "Alpha Labs", methods: [.pkce]),
      ProviderSummary(id: "beta", name: "alpha labs", methods: [.pkce]),
      ProviderSummary(id: "work", name: "Work SSO", methods: [.pkce]),
    ]
    var driver = Driver(providers: providers)
    #expect(driver.state.providers.map(\.id.rawValue) == ["beta", "corp", "work", "acme"])
    driver.press(.character("a"), .home)
    let rows = driver.frame.textLines().filter {
      $0.contains("Browser") || $0.contains("Other provider")
    }
    #expect(
      rows.map { $0.trimmingCharacters(in: .whitespaces).prefix(14) } == [
        "› alpha labs  ", "Alpha Labs    ", "Work SSO      ", "Zeta Corp     ",
        "Other provider",
      ], "\(rows)")
    // Enter signs in with the provider on the row chosen, in the order shown.
    driver.press(.down, .down, .down)
    let started = driver.passWriteCheck(driver.press(.enter))
    guard case .startSignIn(_, let provider, _, _)? = started.first else {
      Issue.record("Enter did not start a sign-in: \(started)")
      return
    }
    #expect(provider == "acme")
  }
}

/// What must never be in a frame: C0 and C1 controls and direction controls.
enum TerminalTextProbe {
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
      || [0x61C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E].contains(scalar.value)
      || (0x2066...0x2069).contains(scalar.value)
  }
}
