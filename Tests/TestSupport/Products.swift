import Foundation

#if canImport(Glibc)
  import Glibc
#endif

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

  /// Writes `text` to the file `name` in the folder (replacing it) and returns its path. Like
  /// `String.write(toFile:atomically: true)` a reader sees the old file or the whole new one
  /// (a temporary file beside it, renamed over it; mode 0666 less the umask).
  ///
  /// Unlike Foundation, this does not `fsync`: a test's fixture need not survive a power cut,
  /// and while other builds keep the disk busy an fsync can block for many seconds. Test
  /// functions run on the two-thread cooperative pool that the whole test run shares, so two
  /// such writes stalled every other test's tasks (loopback servers' answers, the app loop's
  /// effects) until their clients gave up.
  @discardableResult
  public func write(_ text: String, to name: String) throws -> String {
    let target = file(name)
    let partial = target + ".partial"
    let fd = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
    guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else {
        close(fd)
        throw CocoaError(.fileWriteUnknown)
      }
      bytes = bytes.dropFirst(written)
    }
    guard close(fd) == 0, rename(partial, target) == 0 else {
      throw CocoaError(.fileWriteUnknown)
    }
    return target
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }
}
