import Accounts
import AuthCore
import Foundation
import Isolation
import Vault

// What `list`, `export` and `logout` get from the vault, in the form the agent sends it: the
// commands work on these values whether the agent answered or they unlocked the vault
// themselves, so that both ways print the same and fail the same.

extension AgentListing {
  /// `listing` without its tokens: what `authtui list` shows of each account. A record whose
  /// provider id is no id is not in it: `AccountBook.listing()` reports such a row as damaged.
  ///
  /// The summaries are made over the cores (`parallelMap`): a vault may hold thousands.
  package init(_ listing: AccountListing) {
    let defaults = listing.defaults
    let named = listing.accounts.compactMap { record in
      (try? record.accountName).map { (record: record, name: $0) }
    }
    self.init(
      accounts: named.parallelMap { account in
        AccountSummary(
          account.record, name: account.name, isDefault: defaults.contains(account.record.id))
      },
      damaged: listing.damaged.map { damaged in
        Damaged(id: damaged.id.rawValue, name: damaged.name, damage: damaged.damage.description)
      })
  }
}

extension AgentListing.Damaged {
  /// The row's id as the command line takes it: `#2`.
  package var idText: String { AccountID(id).description }

  /// How messages name it: `#2 (simkl/alice)`, or `#2` when its name does not open (as
  /// `DamagedAccount.reference` does).
  package var reference: String { name.map { "\(idText) (\($0))" } ?? idText }
}

extension AccountBook {
  /// What `authtui export` writes (and `exec` passes on) for the account `text` names: a token
  /// with `minimumValidity` seconds left at least (refreshed first when needed, a token
  /// obtained after `startedAt` taken as it is), its expiry after any refresh, and the env
  /// file's default variable (`SIMKL_TOKEN`), with the note of a `TokenShortfall`.
  package func export(
    named text: String, startedAt: Date, minimumValidity: TimeInterval = 60
  ) async throws(AccountsError) -> AgentExport {
    let account = try await account(named: text)
    let (token, stored, shortfall) = try await validTokensNotingShortfall(
      for: account.id, minimumValidity: minimumValidity, startedAt: startedAt)
    let provider = try providerID(named: account.providerID)
    return AgentExport(
      account: AccountName(provider: provider, label: account.label), token: token,
      expiresAt: stored.tokens.expiresAt,
      variable: EnvFile.defaultVariableName(provider: provider, label: nil),
      tokenType: stored.tokens.isDPoPBound ? "DPoP" : "Bearer", note: shortfall?.message)
  }

  /// Signs out the account `text` names, as `authtui logout` does: a readable account is
  /// revoked (unless `localOnly`) and deleted, a damaged one deleted by id (`localOnly` only).
  package func signOut(named text: String, localOnly: Bool) async throws(AccountsError)
    -> AgentSignOut
  {
    let stored = try await storedAccount(named: text)
    let name: String
    let damaged: Bool
    switch stored {
    case .readable(let account):
      // A row whose provider id is no id (written by something other than authtui) reads as
      // readable here, by id, and goes by what its cells hold.
      name = (try? account.accountName.description) ?? account.providerID + "/" + account.label
      damaged = false
    case .damaged(let row):
      name = "the damaged account \(row.reference)"
      damaged = true
    }
    let accessSettings = stored.providerID.flatMap { try? ProviderID($0) }.flatMap {
      catalog.entry($0)?.file.accessSettingsURL
    }
    let report = try await signOut(stored, localOnly: localOnly)
    return AgentSignOut(
      account: name, damaged: damaged, revocation: report.revocation,
      endSessionURL: report.endSessionURL,
      accessSettingsURL: accessSettings)
  }
}
