import App
import Foundation
import System

extension BrowserReport {
  /// Opens `url` with the user's browser (`launcher`), or says why it cannot.
  public static func opening(_ url: String, with launcher: BrowserLauncher?) -> BrowserReport {
    guard let launcher else {
      return .unavailable(
        "no browser here (no BROWSER and no display): open the address on a machine with one")
    }
    guard let address = URL(string: url), launcher.open(address) else {
      return .unavailable("\(launcher.name) could not be started; open the address yourself")
    }
    return .opened(command: launcher.name)
  }
}
