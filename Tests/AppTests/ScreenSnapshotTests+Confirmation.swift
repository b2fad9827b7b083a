import App
import Foundation
import Terminal
import Testing

/// Golden screens of the agent's question about a held token request, at 80×24 and 60×16:
/// over the list, and over a sign-in's provider choice (whatever screen is open).
extension ScreenSnapshotTests {
  @Test(arguments: sizes) func aForwardedRequestAsksOverTheList(size: Size) {
    let driver = ConfirmationReducerTests.asked([ConfirmationReducerTests.forwarded], size: size)
    Snapshot.check(driver.frame, Self.name("confirmation-forwarded", size))
  }

  @Test(arguments: sizes) func aLocalRequestAsksOverTheProviderChoice(size: Size) {
    var driver = Driver(size: size)
    driver.press(.character("a"))
    driver.look(finding: [ConfirmationReducerTests.local])
    Snapshot.check(driver.frame, Self.name("confirmation-local", size))
  }
}
