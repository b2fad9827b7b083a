import Accounts
import Agent
import Foundation
import Spelling
import System
import Vault

/// The accounts the vault holds of one provider: what `providers remove` refuses over, and
/// what `providers add --replace` names as needing a new sign-in. Asked of a running agent,
/// else of the vault; no vault file is no accounts.
enum ProviderAccounts {
  /// One account of the provider.
  enum Held: Sendable, Equatable, Comparable {
    /// A readable account.
    case readable(AccountName)
    /// A damaged row: its vault number, and its `PROVIDER/LABEL` when those cells still open.
    case damaged(id: Int64, name: String?)

    /// How the command line names it: `PROVIDER/LABEL`, or `#N` for a damaged row (which
    /// `logout` takes whether or not its name still reads).
    var argument: String {
      switch self {
      case .readable(let name): name.description
      case .damaged(let id, _): AccountID(id).description
      }
    }

    /// How messages show it: `PROVIDER/LABEL`, or `#N (PROVIDER/LABEL)` as `list` names a
    /// damaged row.
    var shown: String {
      switch self {
      case .readable(let name): name.description
      case .damaged(let id, let name):
        AgentListing.Damaged(id: id, name: name, damage: "").reference
      }
    }

    /// Its label alone where it has one (a damaged row's unreadable name: `#N`).
    var label: String {
      switch self {
      case .readable(let name): name.label
      case .damaged(let id, let name):
        name.flatMap(AccountName.init)?.label ?? AccountID(id).description
      }
    }

    /// The command that signs it out: `authtui logout NAME`, or for a damaged row
    /// `authtui logout '#N' --local-only` (its tokens cannot be read to revoke them).
    var signOutCommand: String {
      switch self {
      case .readable(let name):
        "authtui logout \(MessageQuoting.shellWord(name.description, keeping: "/"))"
      case .damaged:
        "authtui logout \(MessageQuoting.shellWord(argument)) --local-only"
      }
    }

    /// Readable accounts by name first, then damaged rows by number.
    static func < (left: Held, right: Held) -> Bool {
      switch (left, right) {
      case (.readable(let left), .readable(let right)): left.description < right.description
      case (.readable, .damaged): true
      case (.damaged, .readable): false
      case (.damaged(let left, _), .damaged(let right, _)): left < right
      }
    }
  }

  /// How the vault is opened when no agent answers.
  enum Unlock {
    /// As every command opens it: the passphrase variables, the cached key, else a prompt;
    /// under `unlock_once` an agent is left running.
    case asking
    /// No prompt and no agent left running (in the middle of another command's work): the
    /// passphrase variables or the cached key, else `vault_locked`.
    case withoutPrompt
  }

  /// The accounts of provider `id`, sorted (`Held`'s order).
  static func held(
    of id: ProviderID, _ global: GlobalOptions, console: Console, unlock: Unlock
  ) async throws(CommandFailure) -> [Held] {
    if let answer = await AgentAnswer.ask(
      .list, global, timeout: AgentAnswer.accountsTimeout, \.listing),
      case .success(let listing) = answer
    {
      return held(of: id, in: listing)
    }
    let location = VaultAccess.location(global)
    guard FileManager.default.fileExists(atPath: location.path) else { return [] }
    let vault = try await opened(location, global, unlock: unlock)
    let book = await AccountAccess.book(
      over: vault, global, console: console, providers: .provider(id.rawValue),
      leavingAgent: unlock == .asking)
    let listing: AccountListing
    do {
      listing = try await book.listing()
    } catch {
      await vault.close()
      throw AccountAccess.failure(error)
    }
    await vault.close()
    return held(of: id, in: listing)
  }

  /// The vault at `location`, unlocked as `unlock` says.
  private static func opened(
    _ location: VaultLocation, _ global: GlobalOptions, unlock: Unlock
  ) async throws(CommandFailure) -> Vault {
    guard unlock == .withoutPrompt, case .terminal = PassphraseSource.current().origin else {
      return try await VaultAccess.unlocked(global)
    }
    let vault = try await VaultAccess.open(location)
    guard await VaultAccess.unlockWithCachedKey(vault) else {
      await vault.close()
      throw CommandFailure(
        exitCode: .vaultLocked,
        message: "the vault is locked (no agent runs, and no passphrase variable is set)",
        code: "vault_locked")
    }
    return vault
  }

  /// The accounts of provider `id` in an agent's `listing`; a damaged row only when its name
  /// still reads (the agent does not say its provider otherwise).
  static func held(of id: ProviderID, in listing: AgentListing) -> [Held] {
    let readable = listing.accounts.filter { $0.name.provider == id }.map {
      Held.readable($0.name)
    }
    let damaged = listing.damaged.filter { $0.name?.hasPrefix(id.rawValue + "/") == true }.map {
      Held.damaged(id: $0.id, name: $0.name)
    }
    return (readable + damaged).sorted()
  }

  /// The accounts of provider `id` in the vault's `listing`, a damaged row whenever its
  /// provider cell still opens.
  static func held(of id: ProviderID, in listing: AccountListing) -> [Held] {
    let readable = listing.accounts.compactMap { record in
      record.providerID == id.rawValue ? AccountName(provider: id, label: record.label) : nil
    }.map(Held.readable)
    let damaged = listing.damaged.filter { $0.providerID == id.rawValue }.map {
      Held.damaged(id: $0.id.rawValue, name: $0.name)
    }
    return (readable + damaged).sorted()
  }
}
