import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The configuration of every `URLSessionTransport`'s session: no cookies, no cache, no
/// stored credentials, and no folders left in the user's home.
///
/// swift-corelibs-foundation makes two folders while it makes a session configuration, though
/// this one keeps neither cookies nor a cache: `~/.cache/org.swift.foundation.URLCache/NAME`
/// for `URLCache.shared` and for the memory-only cache every `.ephemeral` configuration gets
/// (NAME is the process's), and `~/.local/share/FOLDER` for `HTTPCookieStorage.shared`, FOLDER
/// being the name of the executable's folder (`bin` once installed). The configuration is
/// made once per process, and those of the folders (and their parents) that were not there
/// before and are empty after are removed again. A folder that was there, or that holds
/// anything, is left as it is.
enum SessionConfiguration {
  /// A copy of the one configuration, for a new session.
  static func make() -> URLSessionConfiguration {
    // `copy()` keeps the configuration's (nil) cache: `.ephemeral` would make a new one, and
    // with it the cache folder again.
    guard let copy = template.copy() as? URLSessionConfiguration else { return template }
    return copy
  }

  private static let template: URLSessionConfiguration = {
    let absent = absentFolders(foldersFoundationMakes())
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpShouldSetCookies = false
    configuration.httpCookieAcceptPolicy = .never
    configuration.httpCookieStorage = nil
    configuration.urlCredentialStorage = nil
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    // Deepest first, so that a parent is empty by the time it is tried; `rmdir` removes only
    // an empty folder.
    for folder in absent.sorted(by: { $0.count > $1.count }) { rmdir(folder) }
    return configuration
  }()

  /// The folders Foundation makes for its shared cookie storage and URL cache.
  static func foldersFoundationMakes(
    fileManager: FileManager = .default, bundle: Bundle = .main,
    processName: String = ProcessInfo.processInfo.processName
  ) -> [String] {
    var folders: [String] = []
    if let caches = fileManager.urls(for: .cachesDirectory, in: .userDomainMask).first {
      let name = (bundle.bundleIdentifier ?? processName)
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "\\", with: "_")
        .replacingOccurrences(of: ":", with: "_")
      folders.append(
        caches.appendingPathComponent("org.swift.foundation.URLCache", isDirectory: true)
          .appendingPathComponent(name, isDirectory: true).standardizedFileURL.path)
    }
    if let data = fileManager.urls(for: .applicationSupportDirectory, in: .userDomainMask).first,
      var folder = bundle.bundlePath.split(separator: "/").last.map(String.init)
    {
      if let dot = folder.range(of: ".", options: .backwards) {
        folder = String(folder[..<dot.lowerBound])
      }
      folders.append(
        data.appendingPathComponent(folder, isDirectory: true).standardizedFileURL.path)
    }
    return folders
  }

  /// Each of `folders` that is not there, with its parents up to the first that is.
  static func absentFolders(_ folders: [String]) -> [String] {
    var absent: [String] = []
    for folder in folders {
      var path = folder
      while path.count > 1, !absent.contains(path), access(path, F_OK) != 0, errno == ENOENT {
        absent.append(path)
        path = (path as NSString).deletingLastPathComponent
      }
    }
    return absent
  }
}
