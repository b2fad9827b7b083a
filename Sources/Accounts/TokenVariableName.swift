/// The names the token may not be given, by `exec --var NAME` or in an env file (`export
/// --var NAME`, the UI's export dialog): those the dynamic loader, the C library or the shell
/// read before or while a program runs, and authtui's own. With any of them the token would
/// not just sit in the environment: `--var LD_PRELOAD` makes ld.so print it on standard error
/// ("cannot be preloaded"), `PATH` leaves a shell unable to find a program (an env file with
/// it, once loaded, too), `AUTHTUI_TOKEN_TYPE` is overwritten by the token's scheme.
///
/// The lists are principled rather than complete: glibc's "unsecure" variables (those ld.so
/// drops for a set-user-ID program, `sysdeps/generic/unsecvars.h`, with the `LD_` and `MALLOC_`
/// families whole), the variables POSIX gives the shell a meaning for (XCU 2.5.3, plus `cd`'s
/// `CDPATH` and `OLDPWD`, `select`'s `PS3`, and `SHELL`), bash's start-up variables, and
/// `AUTHTUI_*` other than the default `AUTHTUI_TOKEN`. A program's own variable
/// (`GITHUB_TOKEN`, `PYTHONPATH`) is the user's choice to make.
public enum TokenVariableName {
  /// Where the token would go.
  public enum Use: Sendable {
    /// `exec`'s COMMAND's environment.
    case exec
    /// An env file, loaded later by a shell or a service manager.
    case envFile
  }

  /// Read by the dynamic loader or the C library of every dynamically linked COMMAND.
  static let loaderNames: Set<String> = [
    "GCONV_PATH", "GETCONF_DIR", "GLIBC_TUNABLES", "HOSTALIASES", "LOCALDOMAIN", "LOCPATH",
    "NIS_PATH", "NLSPATH", "RESOLV_HOST_CONF", "RES_OPTIONS", "TMPDIR", "TZDIR",
  ]
  /// The families the loader and the C library read (`LD_PRELOAD`, `MALLOC_CHECK_`).
  static let loaderPrefixes = ["LD_", "MALLOC_"]
  /// Given a meaning by the shell (POSIX, bash) or by every program that starts one.
  static let shellNames: Set<String> = [
    "BASHOPTS", "BASH_ENV", "CDPATH", "ENV", "HOME", "IFS", "LANG", "LINENO", "OLDPWD", "PATH",
    "PPID", "PS1", "PS2", "PS3", "PS4", "PWD", "SHELL", "SHELLOPTS",
  ]
  /// The shell families: locale categories and bash's exported functions.
  static let shellPrefixes = ["LC_", "BASH_FUNC_"]
  /// authtui's own variables: those `exec` sets (`AUTHTUI_TOKEN_TYPE`, `NAME_EXPIRES_AT`,
  /// which for the default is `AUTHTUI_TOKEN_EXPIRES_AT`) and those authtui reads.
  static let ownPrefix = "AUTHTUI_"
  /// The default, the one `AUTHTUI_` name that holds the token.
  static let defaultName = "AUTHTUI_TOKEN"

  /// Why `name` (a shell variable name) cannot hold the token where `use` puts it; nil when
  /// it can.
  public static func reason(_ name: String, for use: Use) -> String? {
    let starts = use == .exec ? "COMMAND starts" : "a program given the file's variables starts"
    if loaderNames.contains(name) || loaderPrefixes.contains(where: name.hasPrefix) {
      return "the dynamic loader or the C library reads it as \(starts), and may print or act "
        + "on the token"
    }
    if shellNames.contains(name) || shellPrefixes.contains(where: name.hasPrefix) {
      return use == .exec
        ? "the shell and the programs COMMAND starts read it"
        : "the shell that loads the file, and every program it starts, read it"
    }
    guard name != defaultName, name.hasPrefix(ownPrefix) else { return nil }
    return use == .exec
      ? "authtui sets or reads AUTHTUI_ variables (exec sets AUTHTUI_TOKEN_TYPE and "
        + "NAME_EXPIRES_AT), and the token would replace one or be replaced"
      : "authtui reads AUTHTUI_ variables, and would take the token for one of its own"
  }

  /// The command line's refusal of `--var name`: why, and the way out; nil when it can.
  public static func refusal(_ name: String, for use: Use) -> String? {
    // `name` is a shell variable name already: letters, digits and _ need no quoting.
    reason(name, for: use).map {
      "--var \(name) cannot hold the token: \($0); choose a name of your own, for example "
        + "--var MY_TOKEN"
    }
  }
}
