import Foundation

/// Opens a web address the way the user's system does: `$BROWSER` when set (a command that
/// takes the URL as its argument, or contains `%s` where the URL goes), else `xdg-open` when a
/// graphical display exists. Over SSH, or on a server, there is none: the caller shows the
/// address instead.
public struct BrowserLauncher: Sendable, Equatable {
  /// How the address is opened.
  public enum Method: Sendable, Equatable {
    /// `$BROWSER`.
    case browserVariable(String)
    /// `xdg-open`, with a display.
    case xdgOpen
  }

  public let method: Method

  /// A launcher that opens addresses by `method`.
  public init(method: Method) { self.method = method }

  /// The launcher this environment offers, or nil when no browser can be opened here.
  public static func available(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> BrowserLauncher?
  {
    if let browser = environment["BROWSER"], !browser.trimmingCharacters(in: .whitespaces).isEmpty {
      return BrowserLauncher(method: .browserVariable(browser))
    }
    let hasDisplay = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains {
      !($0 ?? "").isEmpty
    }
    if hasDisplay && DetachedCommand.isAvailable("xdg-open", environment: environment) {
      return BrowserLauncher(method: .xdgOpen)
    }
    return nil
  }

  /// Asks the browser to open `url`; false when the command could not be started.
  @discardableResult
  public func open(_ url: URL) -> Bool {
    switch method {
    case .browserVariable(let command):
      // `%s` marks where the URL goes (the BROWSER convention); otherwise it is appended.
      let script =
        command.contains("%s")
        ? command.replacingOccurrences(of: "%s", with: "\"$1\"") : "\(command) \"$1\""
      return DetachedCommand.launch(script, arguments: [url.absoluteString])
    case .xdgOpen:
      return DetachedCommand.launch("xdg-open \"$1\"", arguments: [url.absoluteString])
    }
  }

  /// Words for messages: `$BROWSER (firefox)` or `xdg-open`.
  public var name: String {
    switch method {
    case .browserVariable(let command): return "$BROWSER (\(command))"
    case .xdgOpen: return "xdg-open"
    }
  }
}
