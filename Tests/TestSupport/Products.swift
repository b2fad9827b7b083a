import Foundation

/// Where `swift build` put the package's executables, found from the running test binary.
public enum Products {
  /// The build products folder (`.build/<triple>/debug`).
  public static let directory: String = {
    if let override = ProcessInfo.processInfo.environment["AUTHTUI_PRODUCTS_DIR"] {
      return override
    }
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: executable).deletingLastPathComponent().path
  }()

  /// The path of the executable product called `name`.
  public static func path(_ name: String) -> String {
    directory + "/" + name
  }

  /// The `authtui` binary under test.
  public static var authtui: String { path("authtui") }

  /// The `authtui-sandbox` binary under test.
  public static var sandbox: String { path("authtui-sandbox") }

  /// The scripted browser for `BROWSER` (`authtui-test-browser`, built from Tests/TestBrowser).
  public static var testBrowser: String { path("authtui-test-browser") }
}

/// A fresh, private temporary folder, removed when the value is.
public final class TemporaryDirectory: Sendable {
  /// The folder's path.
  public let path: String

  public init() throws {
    let template = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("authtui-test-XXXXXX").path
    var bytes = Array(template.utf8CString)
    guard let created = mkdtemp(&bytes) else {
      throw CocoaError(.fileWriteUnknown)
    }
    path = String(cString: created)
  }

  /// A path inside the folder.
  public func file(_ name: String) -> String { path + "/" + name }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }
}
