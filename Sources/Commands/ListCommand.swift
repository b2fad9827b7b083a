import Accounts
import Agent
import App
import AuthCore
import Foundation
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
      "refreshable", "default", "refresh_expires_at", "tenant"}], with expires_at in ISO 8601
      (UTC) or null and status one of valid, expiring, expired, sign_in_needed; default is
      true for the account a bare PROVIDER names (`authtui default`), marked "(default)" in
      the table; refresh_expires_at is when the refresh token stops working, if known (the
      table's REFRESH says "until" then, or "ended" once it has passed), else null; tenant is
      the tenant it signed in through (Microsoft's tid), else null.
      When `authtui agent` runs for this vault, it answers instead and no passphrase is
      needed; AUTHTUI_NO_AGENT=1 skips it.
      """,
    options: [.flag("json", \.json, help: "print a JSON array instead of a table")])

  var global = GlobalOptions()
  /// `--json`: a JSON array instead of a table.
  var json = false

  /// One account as `list --json` prints it.
  struct Row {
    let account: String
    let provider: String
    let label: String
    let status: String
    let expiresAt: String?
    let scopes: [String]
    let refreshable: Bool
    let isDefault: Bool
    /// When the refresh token stops working, if known (ISO 8601).
    let refreshExpiresAt: String?
    /// True when that moment has passed: the next refresh is refused.
    var refreshEnded = false
    /// The tenant it signed in through (Microsoft's), when known.
    var tenant: String?

    var json: OrderedJSON {
      OrderedJSON.object([
        ("account", .string(account)), ("provider", .string(provider)), ("label", .string(label)),
        ("status", .string(status)), ("expires_at", expiresAt.map { .string($0) } ?? .null),
        ("scopes", .array(scopes.map(OrderedJSON.string))), ("refreshable", .bool(refreshable)),
        ("default", .bool(isDefault)),
        ("refresh_expires_at", refreshExpiresAt.map { .string($0) } ?? .null),
        ("tenant", tenant.map { .string($0) } ?? .null),
      ])
    }
  }

  func run(console: Console) async -> ExitCode {
    do throws(CommandFailure) {
      let listing: AgentListing
      if let answer = await AgentAnswer.ask(
        .list, global, timeout: AgentAnswer.accountsTimeout, \.listing)
      {
        listing = try answer.get()
      } else {
        let book = try await AccountAccess.book(global, console: console)
        do {
          listing = AgentListing(try await book.listing())
        } catch {
          throw AccountAccess.failure(error)
        }
      }
      for damaged in listing.damaged {
        console.err(
          "authtui: account \(damaged.reference) is damaged (\(damaged.damage)) and cannot be read; "
            + "remove it with `authtui logout '\(damaged.idText)' --local-only`")
      }
      let rows = Self.rows(listing.accounts, now: Date())
      console.out(json ? Self.json(rows) : Self.table(rows))
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }

  static func rows(_ accounts: [AgentListing.Account], now: Date) -> [Row] {
    // The UI's order (AccountName's): natural, so user2 comes before user10. The keys are
    // sorted by position, so that the accounts themselves are not copied about.
    let keys = accounts.map { AccountName.OrderKey(provider: $0.provider, label: $0.label) }
    return keys.indices.sorted { keys[$0] < keys[$1] }.map { position in
      let account = accounts[position]
      let status = AccountStatus.classify(
        hasAccessToken: account.usable, expiresAt: account.expiresAt, now: now)
      return Row(
        account: account.name, provider: account.provider, label: account.label,
        status: status.rawValue, expiresAt: account.expiresAt.map(InternetTime.text),
        scopes: account.scopes, refreshable: account.refreshable, isDefault: account.isDefault,
        refreshExpiresAt: account.refreshable
          ? account.refreshValidity.map { InternetTime.text($0.end) } : nil,
        refreshEnded: account.refreshable
          && (account.refreshValidity.map { $0.end <= now } ?? false),
        tenant: account.tenant)
    }
  }

  static func json(_ rows: [Row]) -> String {
    "[" + rows.map(\.json.text).joined(separator: ",") + "]"
  }

  static func table(_ rows: [Row]) -> String {
    guard !rows.isEmpty else {
      return
        "No accounts yet. Sign in with `authtui login PROVIDER` (`authtui providers` lists them)."
    }
    let header = ["ACCOUNT", "STATUS", "EXPIRES", "REFRESH", "SCOPES"]
    let cells = rows.map { row in
      [
        row.isDefault ? row.account + AccountSummary.defaultMark : row.account,
        AccountStatus(rawValue: row.status)?.label ?? row.status,
        expiry(row), refresh(row),
        row.scopes.joined(separator: " "),
      ]
    }
    return TextTable.render(header: header, rows: cells)
  }

  /// The REFRESH cell: no, yes, until when the refresh token works, or since when it does not.
  static func refresh(_ row: Row) -> String {
    guard row.refreshable else { return "no" }
    return row.refreshExpiresAt.map { (row.refreshEnded ? "ended " : "until ") + $0 } ?? "yes"
  }

  /// The EXPIRES cell: as the UI's expiry column, an account that needs a new sign-in has
  /// none (`—`), whatever its old token said.
  static func expiry(_ row: Row) -> String {
    if row.status == AccountStatus.signInNeeded.rawValue { return "—" }
    return row.expiresAt ?? "never"
  }
}
