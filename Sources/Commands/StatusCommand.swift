import Accounts
import Agent
import Foundation
import JSON
import Providers
import System
import Vault

/// `authtui status [--json]` (as `gh auth status`): the vault, the agent, and every account
/// that needs attention, each with the command that fixes it; exit 1 when anything does.
struct StatusCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "status",
    summary: "Show the vault, the agent, and every account that needs attention, with its fix.",
    details: """
      An account needs attention when it needs a new sign-in, has expired or expires soon
      without a refresh token (from when a quarter of its lifetime is left, at most 3 days
      ahead, as the UI's "sign in again before"), has a refresh token that ends soon or has
      ended (Google's apps in "Testing", by the provider file's refresh_token_lifetime, and
      GitHub's refresh_token_expires_in; the same rule), is damaged, or its provider is not
      configured any more (`providers remove --force`); each comes with the
      command that fixes it. So does a rule of config.json's agent.confirm that names no
      account of the vault (renamed or signed out since): it holds no request. On the remote
      side of `authtui ssh`, the agent is the other machine's, and this machine's provider
      files and config.json do not judge its accounts. When `authtui agent` runs for this
      vault, it answers and no passphrase is needed; otherwise the vault is unlocked once, as
      `list` does it, and a passphrase that does not open it is reported, not asked again.
      Exit 0 when nothing needs attention; 1 when something does, there is no vault yet, it
      cannot be unlocked or read, or the agent's socket folder is unusable (another user's,
      open to others, not a folder: the message says what to do).
      The accounts whose tokens are DPoP-bound (usable only with `authtui token ACCOUNT
      --header --for METHOD URL`) are named after the count.
      --json prints {"vault": {"path", "state", "message", "fix"}, "agent": {"running",
      "pid", "vault", "serves_this_vault", "forwarded", "problem"}, "accounts",
      "dpop_bound_accounts": [{"account", "dpop_jkt"}],
      "accounts_needing_attention": [{"account", "problem", "message", "fix"}],
      "confirm_rules_needing_attention": [{"account", "problem", "message", "fix"}]}:
      vault.state is unlocked_by_agent, unlocked, locked, no_vault or unreadable; problem is
      sign_in_needed, expired, expiring_without_refresh, refresh_expiring, refresh_expired,
      damaged or provider_missing (confirm_rule_unmatched for a rule); accounts (the number
      of readable ones), dpop_bound_accounts, pid and the agent's vault are null when
      unknown, the agent's problem null when there is none;
      dpop_jkt is the RFC 7638 thumbprint of the key the token is bound to, null when unknown.
      """,
    options: [.flag("json", \.json, help: "print a JSON object instead of text")])

  var global = GlobalOptions()
  /// `--json`: a JSON object instead of text.
  var json = false

  /// The running agent, as its `status` answer tells it.
  struct AgentFacts: Equatable {
    let pid: Int32
    /// The canonical path of the vault it serves.
    let vault: String
    /// True when that is this command's vault (always, for a forwarded agent: it answers for
    /// its own vault whatever vault is named).
    let servesThisVault: Bool
    /// True when it is the agent of another machine, reached through an ssh forward
    /// (`AUTHTUI_AGENT_FORWARDED`): its pid and vault are that machine's.
    var forwarded = false
  }

  /// How far the vault could be read.
  enum VaultState: String {
    case unlockedByAgent = "unlocked_by_agent"
    case unlocked
    case locked
    case noVault = "no_vault"
    case unreadable
  }

  /// What is wrong with an account.
  enum Problem: String {
    case signInNeeded = "sign_in_needed"
    case expired
    case expiringWithoutRefresh = "expiring_without_refresh"
    case refreshExpiring = "refresh_expiring"
    case refreshExpired = "refresh_expired"
    case damaged
    case providerMissing = "provider_missing"
    /// A rule of config.json's `agent.confirm` for an account the vault does not hold.
    case confirmRuleUnmatched = "confirm_rule_unmatched"
  }

  /// One account that needs attention.
  struct Attention: Equatable {
    /// `PROVIDER/LABEL`, or `#ID` for a damaged row whose name does not read.
    let account: String
    /// How the text names it (`#2 (sandbox/bob)` for a damaged row).
    let reference: String
    let problem: Problem
    /// The problem as a sentence.
    let message: String
    /// The command that fixes it.
    let fix: String
  }

  /// Everything `status` found.
  struct Report {
    let vaultPath: String
    var vaultState: VaultState
    /// Why the vault could not be read (or a `no_vault` sentence).
    var vaultMessage: String?
    /// The command that fixes the vault's state, when there is one.
    var vaultFix: String?
    var agent: AgentFacts?
    /// Why no agent can be used here though something is at its socket's place (a folder of
    /// another user, an agent that does not answer as one), the sentence `agent status` gives.
    var agentProblem: String?
    /// The number of readable accounts; nil when the vault was not read.
    var accounts: Int?
    /// The readable accounts whose tokens are DPoP-bound, in the vault's order; nil when the
    /// vault was not read.
    var dpopBound: [AccountSummary]?
    var attention: [Attention] = []
    /// The rules of config.json's `agent.confirm` that name no account of the vault: they
    /// hold nothing (an account renamed or signed out since).
    var confirmRules: [Attention] = []
    /// config.json, which `confirmRules` are in.
    var settingsFile = ""

    /// True when nothing needs attention (exit 0).
    var allFine: Bool {
      attention.isEmpty && confirmRules.isEmpty && agentProblem == nil
        && (vaultState == .unlockedByAgent || vaultState == .unlocked)
    }
  }

  func run(console: Console) async -> ExitCode {
    let report = await Self.report(global, console: console, now: Date())
    console.out(json ? Self.json(report).text : Self.text(report))
    return report.allFine ? .ok : .failure
  }

  /// Looks at the agent, then reads the vault through it or by unlocking it once.
  static func report(_ global: GlobalOptions, console: Console, now: Date) async -> Report {
    let location = VaultAccess.location(global)
    var report = Report(vaultPath: location.canonicalPath, vaultState: .locked)
    switch await agentFacts(vault: location.canonicalPath) {
    case .success(let facts?): report.agent = facts
    case .success(nil) where AgentStatusCommand.isForwarded:
      // On the remote side of `authtui ssh`, the forward is how the vault is reached.
      report.agentProblem = VaultAccess.forwardedAgentUnreachable(vault: nil).message
    case .success(nil): break
    case .failure(let failure): report.agentProblem = failure.message
    }

    let listing: AgentListing
    if report.agent?.servesThisVault == true,
      let answer = await AgentAnswer.ask(
        .list, global, timeout: AgentAnswer.accountsTimeout, \.listing)
    {
      switch answer {
      case .success(let answered):
        listing = answered
        report.vaultState = .unlockedByAgent
      case .failure(let failure):
        report.vaultState = .unreadable
        report.vaultMessage = failure.message
        return report
      }
    } else {
      do throws(CommandFailure) {
        listing = try await unlockedListing(location, global, console: console)
        report.vaultState = .unlocked
      } catch {
        if error.code == "no_vault" {
          report.vaultState = .noVault
          report.vaultMessage = "no vault yet"
          report.vaultFix = "authtui vault init"
        } else {
          report.vaultState = error.exitCode == .vaultLocked ? .locked : .unreadable
          report.vaultMessage = error.message
        }
        return report
      }
    }
    report.accounts = listing.accounts.count
    report.dpopBound = listing.accounts.filter(\.isDPoPBound)
    // A forwarded agent's machine refreshes and revokes its accounts with its own provider
    // files: this machine's say nothing about them.
    let forwarded = report.agent?.forwarded == true && report.vaultState == .unlockedByAgent
    report.attention = attention(
      listing, now: now,
      knownProviders: forwarded ? nil : AccountAccess.knownProviderIDs(global, console: console))
    // This machine's config.json says nothing of a forwarded agent's accounts either.
    if !forwarded {
      let location = AccountAccess.configuration(global)
      report.settingsFile = location.settingsFile.path
      report.confirmRules = confirmRules(
        AgentConfirmation.unmatchedRules(
          UserSettings.load(from: location).0,
          accounts: AgentConfirmation.accountNames(listing)),
        settingsFile: report.settingsFile)
    }
    return report
  }

  /// The agent on this user's socket, if one answers as an authtui agent; nil when none runs;
  /// `agent status`'s failure when something there keeps one from being used.
  private static func agentFacts(vault: String) async -> Result<AgentFacts?, CommandFailure> {
    let answer: (response: AgentResponse, pid: Int32?, forwarded: Bool)
    do {
      answer = try await AgentStatusCommand.statusAnswer(
        at: AgentSocketLocation.resolve(), vault: vault)
    } catch {
      return error.code == "no_agent" ? .success(nil) : .failure(error)
    }
    switch answer.response {
    case .status(let status):
      return .success(
        AgentFacts(
          pid: status.pid, vault: status.vault,
          servesThisVault: answer.forwarded || status.vault == vault, forwarded: answer.forwarded))
    case .pong(let pid, let served):
      return .success(
        AgentFacts(
          pid: pid, vault: served, servesThisVault: answer.forwarded || served == vault,
          forwarded: answer.forwarded))
    case .failure(let failure):
      return .failure(failure)
    default:
      return .success(nil)
    }
  }

  /// The listing of the vault at `location`, unlocked here with the passphrase read once; a
  /// missing vault fails with the code `no_vault`.
  private static func unlockedListing(
    _ location: VaultLocation, _ global: GlobalOptions, console: Console
  ) async throws(CommandFailure) -> AgentListing {
    let vault: Vault
    do {
      vault = try await Vault.open(at: location)
    } catch {
      var failure = VaultAccess.failure(error)
      if case .noVault = error { failure.code = "no_vault" }
      throw failure
    }
    try await VaultAccess.unlock(
      vault, with: .current(environment: ProcessInfo.processInfo.environment),
      prompt: "Vault passphrase: ")
    let book = AccountAccess.book(
      over: vault, catalog: AccountAccess.catalog(global, console: console, reportProblems: false))
    do {
      return AgentListing(try await book.listing())
    } catch {
      throw AccountAccess.failure(error)
    }
  }

  /// The accounts of `listing` that need attention at `now`: the readable ones in the vault's
  /// order, then the damaged rows by id.
  /// An account whose provider is not among `knownProviders` (when given) cannot be refreshed
  /// or revoked: its provider was removed with `providers remove --force`.
  static func attention(
    _ listing: AgentListing, now: Date, knownProviders: Set<ProviderID>? = nil
  ) -> [Attention] {
    let readable = listing.accounts.compactMap { account -> Attention? in
      let fix = AccountsError.signInCommand(for: account.name)
      func needs(_ problem: Problem, _ message: String, fix: String = fix) -> Attention {
        let name = account.name.description
        return Attention(
          account: name, reference: name, problem: problem, message: message, fix: fix)
      }
      let provider = account.name.provider
      if let knownProviders, !knownProviders.contains(provider) {
        return needs(
          .providerMissing,
          "its provider \(provider) is not configured any more, so its token is neither "
            + "refreshed nor revoked: add the provider back, or remove the account",
          fix: "authtui logout '\(account.name)' --local-only")
      }
      guard account.usable else {
        return needs(.signInNeeded, "needs a new sign-in: it holds no token it can use")
      }
      // The UI's rule for "sign in again before DATE".
      guard let deadline = account.signInDeadline else { return nil }
      switch (deadline.reason, deadline.date > now) {
      case (.accessTokenExpires, false):
        return needs(.expired, "expired \(iso(deadline.date)) and has no refresh token")
      case (.refreshTokenExpires, false):
        return needs(
          .refreshExpired,
          "its refresh token ended \(iso(deadline.date)): the provider refuses the next refresh")
      case (_, true) where deadline.noticeAt > now:
        return nil
      case (.accessTokenExpires, true):
        return needs(
          .expiringWithoutRefresh,
          "expires \(iso(deadline.date)) and has no refresh token: sign in again before then")
      case (.refreshTokenExpires, true):
        return needs(
          .refreshExpiring,
          "its refresh token ends \(iso(deadline.date)), and no refresh works after that: "
            + "sign in again before then")
      }
    }
    let damaged = listing.damaged.map { row in
      Attention(
        account: row.name ?? row.idText, reference: row.reference, problem: .damaged,
        message: "damaged (\(row.damage)) and cannot be read",
        fix: "authtui logout '\(row.idText)' --local-only")
    }
    return readable + damaged
  }

  /// The rules `unmatched` of config.json's `agent.confirm` (at `settingsFile`), each as
  /// needing attention.
  static func confirmRules(_ unmatched: [AccountName], settingsFile: String) -> [Attention] {
    unmatched.map { name in
      Attention(
        account: name.description, reference: "agent.confirm rule for \(name)",
        problem: .confirmRuleUnmatched,
        message: "names no account of this vault (one renamed or signed out since?), so it "
          + "holds no token request for confirmation",
        fix: "edit \(settingsFile): name the account as `authtui list` shows it, or remove "
          + "the rule")
    }
  }

  /// The text: the vault, the agent, the accounts, then each one needing attention.
  static func text(_ report: Report) -> String {
    var lines = ["vault     \(report.vaultPath)", "          " + vaultLine(report)]
    if let agent = report.agent, agent.forwarded {
      lines.append(
        "agent     running: \(AgentStatusCommand.forwardedAgentWords), pid \(agent.pid) there, "
          + "serving that machine's vault \(agent.vault)")
    } else if let agent = report.agent {
      lines.append(
        "agent     running, pid \(agent.pid), "
          + (agent.servesThisVault ? "serving this vault" : "serving another vault, \(agent.vault)")
      )
    } else if let problem = report.agentProblem {
      lines.append("agent     cannot be used: \(problem)")
    } else {
      lines.append("agent     not running (`authtui agent start` unlocks the vault once for all)")
    }
    guard let count = report.accounts else { return lines.joined(separator: "\n") }
    let noun = count == 1 ? "account" : "accounts"
    let needing = report.attention.count
    lines.append(
      "accounts  \(count) \(noun)"
        + (needing == 0
          ? ", nothing needs attention"
          : ", \(needing) \(needing == 1 ? "needs" : "need") attention:"))
    if let bound = report.dpopBound, !bound.isEmpty {
      lines.append(dpopLine(bound))
    }
    for item in report.attention {
      lines += ["", "\(item.reference): \(item.message)", "  fix: \(item.fix)"]
    }
    if !report.confirmRules.isEmpty {
      let count = report.confirmRules.count
      lines += [
        "",
        "config    \(report.settingsFile): \(count) agent.confirm "
          + "\(count == 1 ? "rule needs" : "rules need") attention:",
      ]
      for item in report.confirmRules {
        lines += ["", "\(item.reference): \(item.message)", "  fix: \(item.fix)"]
      }
    }
    return lines.joined(separator: "\n")
  }

  /// The line under the count naming the DPoP-bound accounts (the first few of many).
  private static func dpopLine(_ bound: [AccountSummary]) -> String {
    let shown = bound.prefix(namesShown).map(\.name.description)
    let more =
      bound.count > shown.count
      ? ", and \(bound.count - shown.count) more (`authtui list --json` says which)" : ""
    return "          DPoP-bound (use `authtui token ACCOUNT --header --for METHOD URL`): "
      + shown.joined(separator: ", ") + more
  }

  /// How many DPoP-bound accounts the text names before it says how many more there are.
  static let namesShown = 5

  private static func vaultLine(_ report: Report) -> String {
    switch report.vaultState {
    case .unlockedByAgent:
      return "needs a passphrase; the agent holds it unlocked, so none was asked"
    case .unlocked: return "needs a passphrase; unlocked with it"
    case .noVault:
      return "no vault yet — run `authtui vault init` (a first `authtui login` at a terminal "
        + "also creates it)"
    case .locked: return "locked: " + (report.vaultMessage ?? "the passphrase did not open it")
    case .unreadable: return "cannot be read: " + (report.vaultMessage ?? "")
    }
  }

  /// `--json`'s object.
  static func json(_ report: Report) -> OrderedJSON {
    .object([
      (
        "vault",
        .object([
          ("path", .string(report.vaultPath)), ("state", .string(report.vaultState.rawValue)),
          ("message", report.vaultMessage.map(OrderedJSON.string) ?? .null),
          ("fix", report.vaultFix.map(OrderedJSON.string) ?? .null),
        ])
      ),
      (
        "agent",
        .object([
          ("running", .bool(report.agent != nil)),
          ("pid", report.agent.map { .int(Int($0.pid)) } ?? .null),
          ("vault", report.agent.map { .string($0.vault) } ?? .null),
          ("serves_this_vault", .bool(report.agent?.servesThisVault ?? false)),
          ("forwarded", .bool(report.agent?.forwarded ?? false)),
          ("problem", report.agentProblem.map(OrderedJSON.string) ?? .null),
        ])
      ),
      ("accounts", report.accounts.map { .int($0) } ?? .null),
      (
        "dpop_bound_accounts",
        report.dpopBound.map { bound in
          .array(
            bound.map { account in
              .object([
                ("account", .string(account.name.description)),
                ("dpop_jkt", account.dpopThumbprint.map { .string($0) } ?? .null),
              ])
            })
        } ?? .null
      ),
      ("accounts_needing_attention", .array(report.attention.map(attentionJSON))),
      ("confirm_rules_needing_attention", .array(report.confirmRules.map(attentionJSON))),
    ])
  }

  /// One item needing attention in `--json`.
  private static func attentionJSON(_ item: Attention) -> OrderedJSON {
    .object([
      ("account", .string(item.account)), ("problem", .string(item.problem.rawValue)),
      ("message", .string(item.message)), ("fix", .string(item.fix)),
    ])
  }

  private static func iso(_ date: Date) -> String {
    ISO8601DateFormatter().string(from: date)
  }
}
