import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Starts a shell command in the background and does not wait for it: browsers, `xdg-open`,
/// clipboard tools and the clipboard janitor.
///
/// `/bin/sh -c 'COMMAND … &'` (a `SpawnedProcess`): the shell puts the real program in the
/// background (where POSIX has it ignore the terminal's Ctrl-C) and exits at once, so authtui
/// reaps the shell immediately and never waits on a daemonising launcher, which Foundation's
/// `Process.waitUntilExit` would. Arguments travel as positional parameters (`"$1"`), never
/// pasted into the command text, and its output goes to /dev/null so nothing scribbles on the
/// terminal or the UI.
public enum DetachedCommand {
  /// Runs `script` (shell text using `"$1"`, `"$2"`… for `arguments`) in the background;
  /// false when the shell could not be started. `descriptor`, when given, is the script's
  /// file descriptor 3.
  @discardableResult
  public static func launch(
    _ script: String, arguments: [String] = [], inheriting descriptor: Int32? = nil,
    environment: [String: String]? = nil
  ) -> Bool {
    let script = "( \(script) ) </dev/null >/dev/null 2>&1 &"
    do {
      let shell = try SpawnedProcess.start(
        "/bin/sh", arguments: ["-c", script, "authtui"] + arguments,
        environment: environment ?? ProcessInfo.processInfo.environment, standardInput: .null,
        standardOutput: .null, standardError: .null,
        // The script reads it as file descriptor 3 (`<&3`), e.g. the text for a clipboard tool.
        extra: descriptor.map { [3: $0] } ?? [:])
      _ = shell.wait()
      return true
    } catch {
      return false
    }
  }

  /// True when `name` is an executable on `PATH`.
  public static func isAvailable(
    _ name: String, environment: [String: String] = ProcessInfo.processInfo.environment
  )
    -> Bool
  {
    guard case .found = ForegroundCommand.locate(name, environment: environment) else {
      return false
    }
    return true
  }
}
