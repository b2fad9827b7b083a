import Crypto
import Foundation
import System
import Vault

/// `authtui vault init | status | passwd`: create the vault, show its non-secret facts, change its
/// passphrase.
struct VaultCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    "vault", summary: "Create the encrypted vault, show its facts, or change its passphrase.",
    details: """
      init     create the vault (0600, in a 0700 folder); the passphrase is asked twice
      status   the path, schema, key derivation, account count and whether the file
               permissions are safe; needs no passphrase and shows no secret
      passwd   change the passphrase (only the wrapped data key is rewritten)

      The passphrase comes from AUTHTUI_PASSPHRASE, AUTHTUI_PASSPHRASE_FILE (its first
      line) or AUTHTUI_PASSPHRASE_COMMAND (the first line it prints), else the terminal.
      For passwd, the new one comes from AUTHTUI_NEW_PASSPHRASE, …_FILE or …_COMMAND,
      else the terminal. Exit code 3 when the passphrase is wrong.
      """,
    arguments: [
      .required(
        "ACTION", \.action,
        .choice(Action.allCases) { text, context in
          "unknown vault action '\(text)' (usage: authtui \(context.usage))"
        })
    ])

  /// What `vault` does.
  enum Action: String, CaseIterable, Sendable {
    case `init`, status, passwd
  }

  var global = GlobalOptions()
  /// The action asked for.
  var action = Action.status

  func run(console: Console) async -> ExitCode {
    let environment = ProcessInfo.processInfo.environment
    let location = VaultAccess.location(global, environment: environment)
    do {
      switch action {
      case .`init`:
        try await Self.initialise(location, environment: environment, console: console)
      case .status:
        return try await Self.status(location, console: console)
      case .passwd:
        try await Self.changePassphrase(location, environment: environment, console: console)
      }
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }

  private static func initialise(
    _ location: VaultLocation, environment: [String: String], console: Console
  ) async throws(CommandFailure) {
    // Refuse before asking for a passphrase that would be thrown away.
    if FileManager.default.fileExists(atPath: location.fileURL.path) {
      throw VaultAccess.failure(.alreadyExists(path: location.fileURL.path))
    }
    let passphrase = try await VaultAccess.read(
      .current(environment: environment), prompt: "New vault passphrase: ",
      confirmation: "Repeat the passphrase: ")
    let vault: Vault
    do {
      vault = try await Vault.create(
        at: location, passphrase: passphrase, parameters: .interactive)
    } catch {
      throw VaultAccess.failure(error)
    }
    await vault.close()
    console.out(
      """
      Created the vault \(location.fileURL.path)
      (scrypt \(describe(Scrypt.Parameters.interactive)), AES-256-GCM).
      Keep the passphrase safe: without it the tokens in this vault cannot be recovered.
      """)
  }

  private static func status(_ location: VaultLocation, console: Console)
    async throws(CommandFailure) -> ExitCode
  {
    let status: VaultStatus
    do {
      status = try await Vault.inspect(at: location)
    } catch {
      throw VaultAccess.failure(error)
    }
    let permissions: String
    if let problem = status.permissionProblem {
      permissions =
        "0\(String(status.fileMode, radix: 8)), UNSAFE: run `chmod 600 '\(problem.path)'`"
    } else {
      permissions = "0\(String(status.fileMode, radix: 8)), private to its owner"
    }
    console.out(
      """
      vault        \(status.path)
      schema       version \(status.schemaVersion) (this authtui reads up to \(status.supportedSchemaVersion))
      key          scrypt \(describe(status.kdfParameters)), \(status.saltByteCount)-byte salt; AES-256-GCM cells
      accounts     \(status.accountCount)
      permissions  \(permissions)
      journal      \(status.journalMode)
      """)
    if let problem = status.permissionProblem {
      console.err("authtui: \(problem)")
      return .failure
    }
    return .ok
  }

  private static func changePassphrase(
    _ location: VaultLocation, environment: [String: String], console: Console
  ) async throws(CommandFailure) {
    let vault = try await VaultAccess.open(location)
    try await VaultAccess.unlock(
      vault, with: .current(environment: environment), prompt: "Current vault passphrase: ")
    let replacement = PassphraseSource.replacement(environment: environment)
    let passphrase = try await VaultAccess.read(
      replacement, prompt: "New vault passphrase: ", confirmation: "Repeat the new passphrase: ")
    do {
      try await vault.changePassphrase(to: passphrase, parameters: .interactive)
    } catch {
      throw VaultAccess.failure(error)
    }
    await vault.close()
    var lines = ["Changed the passphrase of \(location.fileURL.path)."]
    if PassphraseSource.current(environment: environment).origin != .terminal {
      lines.append("Update AUTHTUI_PASSPHRASE (or its _FILE or _COMMAND) where you set it.")
    }
    console.out(lines.joined(separator: "\n"))
  }

  /// `N=2^17 r=8 p=1`.
  private static func describe(_ parameters: Scrypt.Parameters) -> String {
    let exponent = parameters.cost.trailingZeroBitCount
    return "N=2^\(exponent) r=\(parameters.blockSize) p=\(parameters.parallelism)"
  }
}
