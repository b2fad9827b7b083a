import Crypto

/// `authtui vault init | status | passwd | unlock | lock`: create the vault, show its
/// non-secret facts, change its passphrase, keep its unlock key in the kernel keyring for a
/// while and forget it; each action a command of its own.
struct VaultCommand: ParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "vault",
    summary: "Create the encrypted vault, show its facts, change its passphrase, cache its key.",
    details: """
      The passphrase comes from AUTHTUI_PASSPHRASE, AUTHTUI_PASSPHRASE_FILE (its first
      line) or AUTHTUI_PASSPHRASE_COMMAND (the first line it prints), else the terminal.
      Exit code 3 when the passphrase is wrong. `vault unlock --cache DURATION` keeps the
      vault's unlock key in the kernel keyring for that long, so that commands and the UI
      need no passphrase meanwhile; `vault lock` forgets it and stops the vault's agent.
      """,
    actions: [
      VaultInitCommand.self, VaultStatusCommand.self, VaultPasswdCommand.self,
      VaultUnlockCommand.self, VaultLockCommand.self,
    ])

  var global = GlobalOptions()

  /// `N=2^17 r=8 p=1`.
  static func describe(_ parameters: Scrypt.Parameters) -> String {
    let exponent = parameters.cost.trailingZeroBitCount
    return "N=2^\(exponent) r=\(parameters.blockSize) p=\(parameters.parallelism)"
  }
}
