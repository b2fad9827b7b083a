/// Where the vault file lives (Vault adds its URLs and whether its permissions keep it
/// private).
///
/// Resolution order: an explicit path (`--vault`), then `AUTHTUI_VAULT`, then
/// `$XDG_DATA_HOME/authtui/vault.db`, then `~/.local/share/authtui/vault.db`.
public struct VaultLocation: Sendable, Equatable {
  /// The vault file's path as given (relative to the working folder, or absolute).
  public let path: String

  /// Uses `path` exactly as given.
  public init(path: String) {
    self.path = path
  }

  /// Resolves the location from an explicit option and the environment variables `variable`
  /// reads (the front of `authtui` reads just these, not the whole environment), asking
  /// `homeFolder` for this user's home only when `HOME` is not set and nothing else names the
  /// vault. Nil when `homeFolder` then gives none: the front leaves that rare case to the full
  /// program, whose `FileManager` asks the password database.
  package static func resolve(
    explicitPath: String?, variable: (String) -> String?, homeFolder: () -> String?
  ) -> VaultLocation? {
    if let explicitPath, !explicitPath.isEmpty { return VaultLocation(path: explicitPath) }
    if let variable = variable("AUTHTUI_VAULT"), !variable.isEmpty {
      return VaultLocation(path: variable)
    }
    let dataHome: String
    if let xdg = variable("XDG_DATA_HOME"), PathText.isAbsolute(xdg) {
      // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
      dataHome = xdg
    } else {
      // An empty or relative HOME is refused by the full program (`HomeFolderCheck`).
      guard let home = variable("HOME") ?? homeFolder(), PathText.isAbsolute(home) else {
        return nil
      }
      dataHome = home + "/.local/share"
    }
    return VaultLocation(path: dataHome + "/authtui/vault.db")
  }
}
