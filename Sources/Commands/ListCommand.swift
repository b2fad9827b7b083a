import Accounts
import Agent
import AuthCore
import Foundation
import Isolation
import JSON
import Vault

/// `authtui list [--json]`: every account with its status and expiry, never a token.
struct ListCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "list",
    summary: "List your accounts with their status and expiry (never a token).",
    details: """
      Status is valid, expiring (less than 5 minutes left), expired, or sign-in needed.
      --json prints [{"account", "provider", "label", "status", "expires_at", "scopes",
      "refreshable", "default", "refresh_expires_at", "tenant", "dpop_bound", "dpop_jkt"}],
      with expires_at in ISO 8601 (UTC) or null and status one of valid, expiring, expired,
      sign_in_needed; default is true for the account a bare PROVIDER names (`authtui
      default`), marked "(default)" in the table; refresh_expires_at is when the refresh
      token stops working, if known (the table's REFRESH says "until" then, or "ended" once
      it has passed), else null; tenant is the tenant it signed in through (Microsoft's tid),
      else null; dpop_bound is true for a DPoP-bound token, dpop_jkt then its key's RFC 7638
      thumbprint (else null).
      An account whose provider is not configured any more (`providers remove --force`) is
      not refreshable (REFRESH no), and standard error says how to add the provider back or
      remove the account.
      When `authtui agent` runs for this vault, it answers instead and no passphrase is
      needed; AUTHTUI_NO_AGENT=1 skips it.
      """,
    options: [.flag("json", \.json, help: "print a JSON array instead of a table")])

  var global = GlobalOptions()
  /// `--json`: a JSON array instead of a table.
  var json = false

  func run(console: Console) async -> ExitCode {
    do throws(CommandFailure) {
      let listing: AgentListing
      // A listing from a forwarded agent: the accounts are refreshed and revoked on its
      // machine, with its provider files, and this machine's say nothing about them.
      var judgedHere = true
      if let answer = await AgentAnswer.ask(
        .list, global, timeout: AgentAnswer.accountsTimeout, \.listing)
      {
        listing = try answer.get()
        judgedHere = !AgentStatusCommand.isForwarded
      } else {
        let book = try await AccountAccess.book(global, console: console)
        do {
          let records = try await book.listing()
          listing = AgentListing(records)
          releaseAside(consume records)
        } catch {
          throw AccountAccess.failure(error)
        }
      }
      for damaged in listing.damaged {
        console.err(
          "authtui: account \(damaged.reference) is damaged (\(damaged.damage)) and cannot be read; "
            + "remove it with `authtui logout '\(damaged.idText)' --local-only`")
      }
      let now = Date()
      var accounts = Self.ordered(listing.accounts)
      let known = judgedHere ? AccountAccess.knownProviderIDs(global, console: console) : nil
      var missing: [ProviderID: [AccountName]] = [:]
      for index in accounts.indices
      where known.map({ !$0.contains(accounts[index].name.provider) }) ?? false {
        accounts[index].refreshable = false
        missing[accounts[index].name.provider, default: []].append(accounts[index].name)
      }
      for (provider, names) in missing.sorted(by: { $0.key < $1.key }) {
        console.err(Self.providerMissing(provider, names))
      }
      console.out(json ? Self.json(accounts, now: now) : Self.table(accounts, now: now))
      // The process ends once this returns: thousands of summaries need not be freed first.
      releaseAside(consume listing)
      releaseAside(consume accounts)
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }

  /// What standard error says of the accounts `names` (one or more) of `provider`, which is
  /// not configured any more: one line for the provider, however many accounts it had.
  static func providerMissing(_ provider: ProviderID, _ names: [AccountName]) -> String {
    guard names.count > 1, let first = names.first else {
      let name = names.first?.description ?? "\(provider)/LABEL"
      return "authtui: \(name)'s provider \(provider) is not configured any more, so its token "
        + "is neither refreshed nor revoked: add the provider back, or remove the account with "
        + "`authtui logout '\(name)' --local-only`"
    }
    return "authtui: \(names.count) accounts of \(provider) (\(first), …) are neither refreshed "
      + "nor revoked: their provider \(provider) is not configured any more; add it back, or "
      + "remove each with `authtui logout '\(provider)/LABEL' --local-only`"
  }

  /// `accounts` in the UI's order (AccountName's): natural, so user2 comes before user10.
  /// The names' keys are made over the cores: a vault may hold thousands.
  static func ordered(_ accounts: [AccountSummary]) -> [AccountSummary] {
    accounts.sortedByName(keys: accounts.parallelMap { $0.name.orderKey })
  }

  static func json(_ accounts: [AccountSummary], now: Date) -> String {
    "["
      + accounts.map { $0.listCommandJSON(at: now, time: InternetTime.text).text }
      .joined(separator: ",") + "]"
  }

  static func table(_ accounts: [AccountSummary], now: Date) -> String {
    guard !accounts.isEmpty else {
      return
        "No accounts yet. Sign in with `authtui login PROVIDER` (`authtui providers` lists them)."
    }
    let header = ["ACCOUNT", "STATUS", "EXPIRES", "REFRESH", "SCOPES"]
    let cells = accounts.parallelMap { account in
      let status = account.status(at: now)
      return [
        account.name.description + (account.isDefault ? AccountSummary.defaultMark : ""),
        status.label, expiry(account, status), refresh(account, now: now),
        account.scopes.joined(separator: " "),
      ]
    }
    return TextTable.render(header: header, rows: cells)
  }

  /// The REFRESH cell: no, yes, until when the refresh token works, or since when it does not.
  static func refresh(_ account: AccountSummary, now: Date) -> String {
    guard account.refreshable else { return "no" }
    return account.refreshEnd.map { ($0 <= now ? "ended " : "until ") + InternetTime.text($0) }
      ?? "yes"
  }

  /// The EXPIRES cell: as the UI's expiry column, an account that needs a new sign-in has
  /// none (`—`), whatever its old token said.
  static func expiry(_ account: AccountSummary, _ status: AccountStatus) -> String {
    if status == .signInNeeded { return "—" }
    return account.expiresAt.map(InternetTime.text) ?? "never"
  }
}
