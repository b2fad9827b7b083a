import Accounts
import Agent
import Foundation
import JSON
import Providers
import System
import Vault

/// `providers add --replace` over a provider authtui had registered: the accounts signed in
/// through the old client. Their refresh tokens were issued to that client, which the new
/// file no longer names (and whose registration is deleted), so each needs a new sign-in.
extension ProvidersAddCommand {
  /// The accounts of `id`, as `providers remove` finds them, but only where that needs no
  /// passphrase prompt: from a running agent, else from the vault unlocked by a passphrase
  /// variable or the key `vault unlock --cache` keeps. `.failure` says why they were not
  /// looked for (the vault is locked, or cannot be read); no vault file is no accounts.
  static func oldClientAccounts(of id: ProviderID, _ global: GlobalOptions, console: Console)
    async -> Result<[String], CommandFailure>
  {
    if let answer = await AgentAnswer.ask(
      .list, global, timeout: AgentAnswer.accountsTimeout, \.listing),
      case .success(let listing) = answer
    {
      return .success(ProvidersRemoveCommand.names(of: id, in: listing).sorted())
    }
    let location = VaultAccess.location(global)
    guard FileManager.default.fileExists(atPath: location.path) else { return .success([]) }
    do throws(CommandFailure) {
      let vault: Vault
      if case .terminal = PassphraseSource.current().origin {
        // A prompt here would be a surprise in the middle of `providers add`.
        vault = try await VaultAccess.open(location)
        guard await VaultAccess.unlockWithCachedKey(vault) else {
          await vault.close()
          return .failure(
            CommandFailure(
              exitCode: .vaultLocked,
              message: "the vault is locked (no agent runs, and no passphrase variable is set)",
              code: "vault_locked"))
        }
      } else {
        vault = try await VaultAccess.unlocked(global)
      }
      let book = await AccountAccess.book(
        over: vault, global, console: console, providers: .provider(id.rawValue),
        leavingAgent: false)
      let listing: AccountListing
      do {
        listing = try await book.listing()
      } catch {
        await vault.close()
        throw AccountAccess.failure(error)
      }
      await vault.close()
      return .success(ProvidersRemoveCommand.names(of: id, in: AgentListing(listing)).sorted())
    } catch {
      return .failure(error)
    }
  }

  /// What standard error says of `accounts` of `id` after the replace: how many, which, and
  /// the sign-in each needs; or, when they could not be looked for, that any there are need
  /// it too. Nil when there are none.
  static func oldClientNote(
    _ accounts: Result<[String], CommandFailure>, of id: ProviderID
  ) -> String? {
    switch accounts {
    case .success(let names) where names.isEmpty:
      return nil
    case .success(let names):
      let labels = names.map { AccountName($0)?.label ?? $0 }
      let shown = labels.prefix(5).joined(separator: ", ")
      let more = labels.count > 5 ? " and \(labels.count - 5) more" : ""
      let login =
        names.count == 1
        ? AccountName(names[0]).map(AccountsError.signInCommand(for:))
          ?? "authtui login \(id)"
        : "authtui login \(id) --label LABEL"
      return "authtui: \(names.count) account\(names.count == 1 ? "" : "s") of \(id) "
        + "(\(shown)\(more)) \(names.count == 1 ? "was" : "were") signed in through the old "
        + "client and \(names.count == 1 ? "needs" : "need") `\(login)` again"
    case .failure(let failure):
      return "authtui: accounts of \(id) signed in through the old client need `authtui login "
        + "\(id) --label LABEL` again; they were not looked for: \(failure.message) "
        + "(`authtui list` shows them)"
    }
  }

  /// The `--json` member for `accounts`: `old_client_accounts`, the names, or null when they
  /// could not be looked for.
  static func oldClientMember(_ accounts: Result<[String], CommandFailure>) -> (
    String, OrderedJSON
  ) {
    switch accounts {
    case .success(let names): ("old_client_accounts", .array(names.map(OrderedJSON.string)))
    case .failure: ("old_client_accounts", .null)
    }
  }
}
