import AuthCore

/// Facts about this build, for `--version` and the help header.
package enum BuildInfo {
  /// The version `--version` prints.
  package static var version: String { AuthTUIVersion.current }
}
