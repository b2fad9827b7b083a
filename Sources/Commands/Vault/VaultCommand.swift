import Crypto

/// `authtui vault init | status | passwd`: create the vault, show its non-secret facts, change
/// its passphrase; each action a command of its own.
struct VaultCommand: ParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "vault", summary: "Create the encrypted vault, show its facts, or change its passphrase.",
    details: """
      The passphrase comes from AUTHTUI_PASSPHRASE, AUTHTUI_PASSPHRASE_FILE (its first
      line) or AUTHTUI_PASSPHRASE_COMMAND (the first line it prints), else the terminal.
      Exit code 3 when the passphrase is wrong.
      """,
    actions: [VaultInitCommand.self, VaultStatusCommand.self, VaultPasswdCommand.self])

  var global = GlobalOptions()

  /// `N=2^17 r=8 p=1`.
  static func describe(_ parameters: Scrypt.Parameters) -> String {
    let exponent = parameters.cost.trailingZeroBitCount
    return "N=2^\(exponent) r=\(parameters.blockSize) p=\(parameters.parallelism)"
  }
}
