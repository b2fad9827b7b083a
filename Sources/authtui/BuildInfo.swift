import AuthCore

/// Facts about this build, for `--version` and the help header.
enum BuildInfo {
  static var version: String { AuthTUIVersion.current }
}
