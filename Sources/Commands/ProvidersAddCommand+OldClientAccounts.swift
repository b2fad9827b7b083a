import Accounts
import JSON
import Providers

/// `providers add --replace` over a provider authtui had registered: the accounts signed in
/// through the old client. Their refresh tokens were issued to that client, which the new
/// file no longer names (and whose registration is deleted), so each needs a new sign-in.
extension ProvidersAddCommand {
  /// The accounts of `id`, as `providers remove` finds them, but only where that needs no
  /// passphrase prompt (`ProviderAccounts.Unlock.withoutPrompt`). `.failure` says why they
  /// were not looked for (the vault is locked, or cannot be read).
  static func oldClientAccounts(of id: ProviderID, _ global: GlobalOptions, console: Console)
    async -> Result<[ProviderAccounts.Held], CommandFailure>
  {
    do throws(CommandFailure) {
      return .success(
        try await ProviderAccounts.held(of: id, global, console: console, unlock: .withoutPrompt))
    } catch {
      return .failure(error)
    }
  }

  /// What standard error says of `accounts` of `id` after the replace: how many, which, and
  /// the sign-in each needs; or, when they could not be looked for, that any there are need
  /// it too. Nil when there are none.
  static func oldClientNote(
    _ accounts: Result<[ProviderAccounts.Held], CommandFailure>, of id: ProviderID
  ) -> String? {
    switch accounts {
    case .success(let names) where names.isEmpty:
      return nil
    case .success(let names):
      let shown = names.prefix(5).map(\.label).joined(separator: ", ")
      let more = names.count > 5 ? " and \(names.count - 5) more" : ""
      let login =
        if names.count == 1, case .readable(let name) = names[0] {
          AccountsError.signInCommand(for: name)
        } else {
          "authtui login \(id) --label LABEL"
        }
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
  static func oldClientMember(_ accounts: Result<[ProviderAccounts.Held], CommandFailure>) -> (
    String, OrderedJSON
  ) {
    switch accounts {
    case .success(let names):
      ("old_client_accounts", .array(names.map { OrderedJSON.string($0.argument) }))
    case .failure: ("old_client_accounts", .null)
    }
  }
}
