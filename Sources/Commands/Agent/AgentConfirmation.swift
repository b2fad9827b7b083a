import Agent
import Foundation
import Providers
import Spelling
import System

/// The agent's confirmation of token requests (`--confirm`, `"agent": {"confirm": …}` in
/// config.json, `AUTHTUI_CONFIRM_COMMAND`), as the agent command sets it up.
enum AgentConfirmation {
  /// How long a held request waits for a person.
  static let window = AgentConnection.confirmationWindow

  /// Debug and test builds only: the seconds a held request waits instead of `window`, so
  /// that a test of a denial after the window does not take a minute.
  static let testWindowVariable = "AUTHTUI_TEST_CONFIRM_WINDOW"

  /// The desk for an agent started with `environment`: its window, and the confirm command
  /// read now (a change of the variable later does not reach a running agent).
  static func desk(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> ConfirmationDesk
  {
    let command = ConfirmCommand(environment: environment).map { command in
      { @Sendable (question: ConfirmationQuestion, timeout: TimeInterval) async -> String? in
        await command.ask(question.commandInput, timeout: timeout)
      }
    }
    return ConfirmationDesk(window: window(environment: environment), command: command)
  }

  /// The window, shortened by `AUTHTUI_TEST_CONFIRM_WINDOW` in a debug build.
  static func window(environment: [String: String]) -> TimeInterval {
    TestSeconds.value(of: testWindowVariable, in: environment) ?? window
  }

  /// The rules: `--confirm` for every account, and each account's own in config.json. An agent
  /// is not started on rules config.json cannot state for sure (a file that is not JSON, a
  /// misspelt word): it would hand out unconfirmed what the user meant to have confirmed.
  static func rules(_ mode: ConfirmationMode?, _ options: GlobalOptions) throws(CommandFailure)
    -> ConfirmationRules
  {
    let (settings, problems) = UserSettings.load(from: AccountAccess.configuration(options))
    guard let rules = rules(mode, settings) else {
      throw CommandFailure(
        exitCode: .failure,
        message: "the agent did not start: it cannot tell from config.json which accounts "
          + "need confirmation (agent.confirm): " + uncertainty(settings, problems)
          + "; fix the file, then start the agent again")
    }
    return rules
  }

  /// Why `settings`' rules are uncertain: config.json's `problems`, or else its entries that
  /// name no account.
  static func uncertainty(_ settings: UserSettings, _ problems: [ProviderProblem]) -> String {
    let said =
      problems.isEmpty
      ? settings.agentConfirm.keys.filter { AccountName($0) == nil }.sorted().map {
        "agent.confirm: \(MessageQuoting.quoted($0)) is not an account name (PROVIDER/LABEL)"
      }
      : problems.map(\.description)
    return said.joined(separator: "; ")
  }

  /// The accounts `settings`' `agent.confirm` names that are none of `accounts`, sorted: rules
  /// that hold no request (an account renamed or signed out since, or a misspelt name), which
  /// the agent's start, `status` and `rename` name, as nothing else would show them.
  static func unmatchedRules(_ settings: UserSettings, accounts: [AccountName]) -> [AccountName] {
    let held = Set(accounts)
    return settings.agentConfirm.keys.compactMap(AccountName.init).filter { !held.contains($0) }
      .sorted { $0.description < $1.description }
  }

  /// The names of `listing`'s accounts, readable or damaged (a damaged one still is one).
  static func accountNames(_ listing: AgentListing) -> [AccountName] {
    listing.accounts.map(\.name) + listing.damaged.compactMap { $0.name.flatMap(AccountName.init) }
  }

  /// The names of `unmatched`, quoted and joined: `"sandbox/alice", "work/bob"`.
  static func names(_ unmatched: [AccountName]) -> String {
    unmatched.map { MessageQuoting.quoted($0.description) }.joined(separator: ", ")
  }

  /// The agent's start-up line for rules of config.json that name no account of its vault;
  /// nil when every rule names one. `accounts` (a listing of the whole vault) is asked only
  /// when there are rules.
  static func unmatchedRulesLine(
    _ options: GlobalOptions, accounts: () async -> [AccountName]?
  ) async -> String? {
    let location = AccountAccess.configuration(options)
    let settings = UserSettings.load(from: location).0
    guard !settings.agentConfirm.isEmpty, let accounts = await accounts() else { return nil }
    let unmatched = unmatchedRules(settings, accounts: accounts)
    guard !unmatched.isEmpty else { return nil }
    return "authtui agent: agent.confirm in \(location.settingsFile.path) names "
      + "\(names(unmatched)), which \(unmatched.count == 1 ? "is" : "are") no account of this "
      + "vault: \(unmatched.count == 1 ? "that rule holds" : "those rules hold") no request; "
      + "name the accounts as `authtui list` shows them"
  }

  /// The rules of `--confirm` and of `settings`' `agent.confirm`; nil when they may lack what
  /// the user wrote (`UserSettings.agentConfirmUncertain`, or an entry that is no account name).
  static func rules(_ mode: ConfirmationMode?, _ settings: UserSettings) -> ConfirmationRules? {
    guard !settings.agentConfirmUncertain else { return nil }
    var accounts: [AccountName: ConfirmationMode] = [:]
    for (text, word) in settings.agentConfirm {
      guard let name = AccountName(text), let mode = ConfirmationMode(rawValue: word) else {
        return nil
      }
      accounts[name] = mode
    }
    return ConfirmationRules(mode: mode, accounts: accounts)
  }
}
