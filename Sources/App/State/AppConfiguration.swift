import Foundation

/// Facts about this run that the screens show or depend on, fixed at start.
public struct AppConfiguration: Sendable, Equatable {
  /// The vault file as the user knows it (`~/.local/share/authtui/vault.db`).
  public var vaultPath: String
  /// The configuration folder as the user knows it (`~/.config/authtui`).
  public var configDirectory: String
  /// The time zone dates are shown in.
  public var timeZone: TimeZone
  /// True when a browser can be opened here (`BROWSER`, or `xdg-open` with a display): the
  /// sign-in screens then open pages by themselves.
  public var browserAvailable: Bool
  /// Seconds after which a copied token is cleared from the clipboard.
  public var clipboardClearAfter: TimeInterval
  /// A line the title bar and the unlock screen show for `authtui demo` (nil otherwise).
  public var demoNotice: String?
  /// The name the demo's approver signs in as, when it plays the person at the browser (the
  /// demo with no browser here): the sign-in screens then let the user choose what it
  /// answers. Nil otherwise.
  public var demoApprover: String?
  /// The issuer the "Other provider…" form starts with: the demo's sandbox server that lets
  /// authtui register itself (nil otherwise).
  public var issuerSuggestion: String?

  /// The configuration of a run.
  public init(
    vaultPath: String, configDirectory: String, timeZone: TimeZone = .current,
    browserAvailable: Bool = false, clipboardClearAfter: TimeInterval = 45,
    demoNotice: String? = nil, demoApprover: String? = nil, issuerSuggestion: String? = nil
  ) {
    self.issuerSuggestion = issuerSuggestion
    self.vaultPath = vaultPath
    self.configDirectory = configDirectory
    self.timeZone = timeZone
    self.browserAvailable = browserAvailable
    self.clipboardClearAfter = clipboardClearAfter
    self.demoNotice = demoNotice
    self.demoApprover = demoApprover
  }
}
