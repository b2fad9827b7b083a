import App
import Foundation

/// Opens pages in the user's browser (DESIGN.md "Command line": `BROWSER`, else `xdg-open`
/// when a display exists), never waiting for it.
struct BrowserLauncher: Sendable {
  let environment: [String: String]

  /// The command that opens a URL here, or nil when none can: `BROWSER` (its first entry when
  /// it lists several, `%s` replaced by the URL), else `xdg-open` when there is a display.
  var command: [String]? {
    if let browser = environment["BROWSER"], !browser.isEmpty {
      let first = browser.split(separator: ":").first.map(String.init) ?? browser
      let words = first.split(separator: " ").map(String.init)
      return words.isEmpty ? nil : words
    }
    let display = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains {
      !($0 ?? "").isEmpty
    }
    guard display, DetachedProcess.isInstalled("xdg-open", environment: environment) else {
      return nil
    }
    return ["xdg-open"]
  }

  /// True when a page can be opened here.
  var isAvailable: Bool { command != nil }

  /// Starts the browser on `url`.
  func open(_ url: String) -> BrowserReport {
    guard var words = command else {
      return .unavailable(
        "no browser here (no BROWSER and no display): open the address on a machine with one")
    }
    if words.contains(where: { $0.contains("%s") }) {
      words = words.map { $0.replacingOccurrences(of: "%s", with: url) }
    } else {
      words.append(url)
    }
    do {
      try DetachedProcess.start(words, environment: environment)
      return .opened(command: words[0])
    } catch {
      return .unavailable(
        "the browser command could not start (\(error)); open the address yourself")
    }
  }
}
