import Foundation
import System
import Vault

/// `authtui vault unlock --cache DURATION`: asks for the passphrase once and keeps the vault's
/// unlock key in the kernel keyring for that long, so every authtui process on this vault
/// unlocks without asking.
struct VaultUnlockCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "unlock",
    summary: "Keep the vault's unlock key in the kernel keyring for a while (--cache).",
    details: """
      Asks for the passphrase as every command does (AUTHTUI_PASSPHRASE, …_FILE, …_COMMAND,
      else the terminal), unlocks the vault, and keeps its unlock key (the key the passphrase
      gives, not the passphrase) in the Linux kernel keyring of your user for DURATION: a
      `user` key named authtui:vault:<vault id> in your user keyring, readable by your own
      processes only, removed by the kernel when the time is up. Until then every authtui
      process on this vault (the interactive UI, `list`, `token`, `agent start`…) unlocks
      with it, without a passphrase and without the key derivation, across agent restarts and
      logouts of a shell. Caching again replaces the key and starts its time again. `authtui
      vault lock` forgets it sooner, `vault status` shows until when it is kept, and `vault
      passwd` removes it. Exit 1, with nothing cached, where the kernel keyring is not
      available (a container's seccomp profile may forbid it).
      """,
    options: [
      .value(
        "cache", \.cache, .duration(longest: .seconds(UnlockKeyCache.longest)), "DURATION",
        help: "how long the key stays cached: 90s, 15m, 8h, 2d or seconds; at most 7d",
        required: "how long the key stays cached (90s, 15m, 8h, 2d; at most 7d)")
    ])

  var global = GlobalOptions()
  /// `--cache`: how long the key stays in the keyring.
  var cache = Duration.zero

  func run(console: Console) async -> ExitCode {
    let environment = ProcessInfo.processInfo.environment
    let location = VaultAccess.location(global, environment: environment)
    do throws(CommandFailure) {
      // Before the passphrase is asked for nothing.
      do {
        try UnlockKeyCache.checkAvailable()
      } catch {
        throw Self.notCached(error)
      }
      let vault = try await VaultAccess.open(location)
      try await VaultAccess.unlock(
        vault, with: .current(environment: environment), prompt: "Vault passphrase: ",
        cachedKey: false)
      let stored: UnlockKeyCache.Stored
      do throws(CommandFailure) {
        guard let key = await vault.unlockKey() else {
          throw VaultAccess.failure(.locked(path: location.fileURL.path))
        }
        let id: String
        do {
          id = try await vault.identifier()
        } catch {
          throw VaultAccess.failure(error)
        }
        do {
          stored = try UnlockKeyCache.store(
            key, vaultID: id, seconds: Int(cache.components.seconds))
        } catch {
          throw Self.notCached(error)
        }
      } catch {
        await vault.close()
        throw error
      }
      await vault.close()
      var line =
        "Cached the unlock key of the vault \(location.fileURL.path) in the kernel keyring "
        + "until \(Self.time(stored.until))"
      if let replaced = stored.replaced {
        line += " (it replaced the key cached until \(Self.time(replaced)))"
      }
      console.out(
        line + ".\nauthtui on this vault needs no passphrase until then; "
          + "`authtui vault lock` forgets the key sooner.")
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }

  /// The refusal when the keyring would not take the key.
  private static func notCached(_ failure: UnlockKeyCacheFailure) -> CommandFailure {
    CommandFailure(
      exitCode: .failure,
      message: "cannot cache the unlock key: \(failure); nothing was cached: commands ask for "
        + "the passphrase as before (`authtui agent start` keeps the vault open for them instead)")
  }

  /// A time as every authtui message writes it: ISO 8601, UTC.
  static func time(_ date: Date) -> String {
    ISO8601DateFormatter().string(from: date)
  }
}
