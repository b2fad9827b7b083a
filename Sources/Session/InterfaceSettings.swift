import App
import Foundation
import Providers
import Theme

/// What the UI starts with from the configuration folder: its theme, its keys, how long a
/// copied token stays on the clipboard, and a notice for each thing that could not be used
/// (the UI says those on its first screen and runs with the rest).
public struct InterfaceSettings: Sendable {
  /// The theme to draw with.
  public let theme: Theme
  /// The key bindings, `config.json`'s `"keys"` over the defaults.
  public let keys: KeyBindings
  /// Seconds before a copied token is cleared (`clipboard_clear_after`, default 45).
  public let clipboardClearAfter: TimeInterval
  /// What could not be used, each naming its file (and line, where it has one).
  public let notices: [String]

  /// Reads `config.json` in `configuration`, and picks `requestedTheme` (the `--theme`
  /// option; nil: the file's `"theme"`, else the default) from `themes`. A theme that cannot
  /// be used is a notice, and the default theme is drawn instead (a plain one, when even that
  /// cannot be). With `readsProviderFiles`, provider files that cannot be read at all are
  /// notices too (the others' problems show on the sign-in screens); the demo's throwaway
  /// folder has none worth naming.
  public init(
    configuration: ConfigurationLocation, themes: ThemeCatalog, requestedTheme: String?,
    colorsOff: Bool, readsProviderFiles: Bool
  ) {
    let settingsFile = ConfigurationLocation.display(configuration.settingsFile)
    let (settings, settingsProblems) = UserSettings.load(from: configuration)
    var notices = settingsProblems.map(\.description)
    if readsProviderFiles {
      notices += ProviderCatalog.load(from: configuration).skippedFiles.map(\.description)
    }
    notices += themes.problems.map(\.description)
    do {
      theme = try themes.theme(requested: requestedTheme ?? settings.theme, colorsOff: colorsOff)
    } catch {
      notices.append("\(settingsFile): \"theme\": \(error)")
      theme =
        (try? themes.theme(requested: nil, colorsOff: colorsOff))
        ?? Theme(name: "plain", styles: [:])
    }
    keys = KeyBindings(
      overrides: settings.keys, file: settingsFile,
      lines: settings.keyPositions.mapValues(\.line))
    clipboardClearAfter = settings.clipboardClearAfter ?? 45
    self.notices = notices
  }
}
