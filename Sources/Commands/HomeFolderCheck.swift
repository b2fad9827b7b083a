import Foundation
import Spelling

/// Refuses an empty or relative `HOME` where authtui would build a path on it: the vault
/// (`~/.local/share/authtui/vault.db`) or the configuration folder (`~/.config/authtui`) would
/// otherwise be `/.local/share/…` or a folder under wherever the command runs. A `HOME` that is
/// not set is not one: the password database names the home folder then.
package enum HomeFolderCheck {
  /// The failure for a command that needs `HOME` (neither `--vault`, `AUTHTUI_VAULT` nor an
  /// absolute `XDG_DATA_HOME` names the vault, or the same for the configuration folder) when
  /// it is empty or relative; nil otherwise, and for `help` and `completion`, which need
  /// neither.
  package static func failure(
    _ global: GlobalOptions, command: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> CommandFailure? {
    guard let home = environment["HOME"], !home.hasPrefix("/"),
      !["help", "completion"].contains(command)
    else { return nil }
    func named(_ option: String?, _ variable: String, _ xdg: String) -> Bool {
      !(option ?? "").isEmpty || !(environment[variable] ?? "").isEmpty
        || environment[xdg]?.hasPrefix("/") == true
    }
    guard
      !named(global.vault, "AUTHTUI_VAULT", "XDG_DATA_HOME")
        || !named(global.config, "AUTHTUI_CONFIG_DIR", "XDG_CONFIG_HOME")
    else { return nil }
    let what = home.isEmpty ? "empty" : "\(MessageQuoting.quoted(home)), a relative path"
    return CommandFailure(
      exitCode: .failure,
      message: "HOME is \(what); authtui keeps its vault and settings under your home folder, "
        + "so HOME must be its absolute path: set it (export HOME=/home/you), or name both "
        + "places with AUTHTUI_VAULT and AUTHTUI_CONFIG_DIR")
  }
}
