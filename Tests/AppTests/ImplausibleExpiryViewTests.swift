import App
import Foundation
import Terminal
import Testing

/// An expiry no whole number of seconds holds (a provider's `expires_in` of 1e300, stored by an
/// older version) is drawn, not a crash, in the list and the details.
@Suite struct ImplausibleExpiryViewTests {
  @Test(arguments: [1e300, 9.3e18, -1e300, Double.infinity])
  func theListAndTheDetailsDrawAnExpiryFarBeyondAnyYear(_ seconds: Double) {
    var far = Fixtures.dave
    far.expiresAt = Date(timeIntervalSince1970: seconds)
    var driver = Driver(accounts: [far])
    let list = driver.frame.textLines().joined(separator: "\n")
    #expect(list.contains("dave"), "\(list)")
    driver.press(.enter)
    let details = driver.frame.textLines().joined(separator: "\n")
    #expect(details.contains("hivesigner/dave"), "\(details)")
  }
}
