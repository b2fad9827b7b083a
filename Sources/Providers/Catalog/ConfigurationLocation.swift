import Foundation
import Locations

#if canImport(Glibc)
  import Glibc
#endif

/// Where the user's configuration folder is: `--config DIR`, else `AUTHTUI_CONFIG_DIR`, else
/// `$XDG_CONFIG_HOME/authtui`, else `~/.config/authtui`.
public struct ConfigurationLocation: Sendable, Equatable {
  /// The folder (it may not exist: then there is simply no user configuration).
  public let directory: URL

  public init(directory: URL) {
    self.directory = directory
  }

  /// Resolves the folder from an explicit option and the environment.
  public static func resolve(
    explicitPath: String?, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> ConfigurationLocation {
    if let explicitPath, !explicitPath.isEmpty {
      return ConfigurationLocation(directory: URL(fileURLWithPath: explicitPath))
    }
    if let variable = environment["AUTHTUI_CONFIG_DIR"], !variable.isEmpty {
      return ConfigurationLocation(directory: URL(fileURLWithPath: variable))
    }
    // The XDG Base Directory spec: a relative XDG_CONFIG_HOME is invalid and must be ignored.
    if let xdg = environment["XDG_CONFIG_HOME"], xdg.utf8.first == UInt8(ascii: "/") {
      return ConfigurationLocation(directory: URL(fileURLWithPath: xdg + "/authtui"))
    }
    let home = environment["HOME"] ?? NSHomeDirectory()
    return ConfigurationLocation(directory: URL(fileURLWithPath: home + "/.config/authtui"))
  }

  /// `providers/`, holding one JSON file per provider.
  public var providersDirectory: URL { directory.appendingPathComponent("providers") }
  /// `themes/`, holding the user's `.theme` files.
  public var themesDirectory: URL { directory.appendingPathComponent("themes") }
  /// `config.json`, the settings file.
  public var settingsFile: URL { directory.appendingPathComponent("config.json") }

  /// What is wrong with the folder itself: something other than a folder at its path (a file
  /// given to `--config` or `AUTHTUI_CONFIG_DIR` for the folder). Nothing there, or a folder, is
  /// no problem.
  public var folderProblem: ProviderProblem? {
    var status = stat()
    guard stat(directory.path, &status) == 0 else {
      return errno == ENOTDIR ? fileOnTheWay() : nil
    }
    guard status.st_mode & S_IFMT != S_IFDIR else { return nil }
    return ProviderProblem(
      file: Self.display(directory), position: nil, field: nil,
      message: "the configuration folder is \(FileType.name(of: status.st_mode)), not a folder, "
        + "so its config.json, providers/ and themes/ were not read; point --config or "
        + "AUTHTUI_CONFIG_DIR at the folder that holds them")
  }

  /// A folder on the way to the configuration folder is something else (`XDG_CONFIG_HOME`
  /// naming a file): the folder cannot exist, and nothing of it was read.
  private func fileOnTheWay() -> ProviderProblem? {
    var prefix = ""
    for component in directory.path.split(separator: "/") {
      prefix += "/" + component
      var status = stat()
      guard stat(prefix, &status) == 0 else { return nil }
      guard status.st_mode & S_IFMT == S_IFDIR else {
        return ProviderProblem(
          file: Self.display(directory), position: nil, field: nil,
          message: "the configuration folder cannot exist: \(prefix) is "
            + "\(FileType.name(of: status.st_mode)), not a folder, so no config.json, "
            + "providers/ or themes/ were read; point XDG_CONFIG_HOME (or --config or "
            + "AUTHTUI_CONFIG_DIR) at a folder")
      }
    }
    return nil
  }

  /// A path as the user would type it, with the home folder as `~`.
  public static func display(
    _ url: URL, home: String? = ProcessInfo.processInfo.environment["HOME"]
  )
    -> String
  {
    let path = url.path
    if let home, !home.isEmpty, path.hasPrefix(home + "/") {
      return "~" + path.dropFirst(home.count)
    }
    return path
  }
}
