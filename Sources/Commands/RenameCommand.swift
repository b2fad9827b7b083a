import Accounts
import Agent
import Providers

/// `authtui rename ACCOUNT LABEL`: gives an account another label, checked by the rules every
/// label follows.
struct RenameCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "rename",
    summary: "Give ACCOUNT another label (PROVIDER/LABEL becomes PROVIDER/NEW-LABEL).",
    details: """
      The label follows the rules of `login --label`: 1 to 64 characters, no /, no leading #,
      no control character, no space at either end; a label another account of the provider
      has is refused. It may be given as the new name whole (`rename sandbox/alice
      sandbox/bob`). The account keeps its tokens, its default mark and the provider's
      account details; a later `authtui login PROVIDER` without --label signs in to it again
      under its new name. When `authtui agent` runs for this vault, it makes the change and no
      passphrase is needed. A rule of config.json's agent.confirm does not follow the
      account: when it names the old name, standard error says to edit the file.
      """,
    arguments: [.required("ACCOUNT", \.target, .account), .required("LABEL", \.label, .text)])

  var global = GlobalOptions()
  /// The account as given.
  var target = ""
  /// Its new label, checked as `login --label` checks one.
  var label = ""

  /// The label `text` gives: the text itself, or what follows `PROVIDER/` when it names the
  /// account's own provider (`rename sandbox/alice sandbox/bob`, the name the account will
  /// have), where `target` names it (`PROVIDER/LABEL`, or `PROVIDER` alone).
  static func label(_ text: String, renaming target: String) -> String {
    guard let new = AccountName.halves(of: text), !target.hasPrefix("#") else { return text }
    let provider = AccountName.halves(of: target)?.provider ?? Substring(target)
    return new.provider == provider ? String(new.label) : text
  }

  func run(console: Console) async -> ExitCode {
    do throws(CommandFailure) {
      let change = try await Self.rename(target, to: label, global, console: console)
      if change.unchanged {
        console.out("\(change.account) has that label already; nothing changed.")
      } else {
        console.out("\(change.previous) is now \(change.account).")
        if let note = Self.staleRuleNote(change, global) { console.err(note) }
      }
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }

  /// What standard error says when config.json's `agent.confirm` has a rule for the old name
  /// and none for the new one: the rule no longer holds the account's requests, and the file
  /// is the user's to edit (authtui does not rewrite it).
  static func staleRuleNote(_ change: RenameChange, _ global: GlobalOptions) -> String? {
    let location = AccountAccess.configuration(global)
    let rules = UserSettings.load(from: location).0.agentConfirm
    let named = Set(rules.keys.compactMap(AccountName.init))
    guard named.contains(change.previous), !named.contains(change.account) else { return nil }
    return "authtui: agent.confirm in \(location.settingsFile.path) still names "
      + "\(change.previous), so the agent no longer holds \(change.account)'s token requests for "
      + "confirmation by that rule; edit the file to name \(change.account)"
  }

  /// The rename: by the agent when one serves this vault (no passphrase is asked), else over
  /// the vault unlocked here. A request the agent got but did not answer is not made again
  /// here: it may have been done, and the old name would then be gone.
  private static func rename(
    _ target: String, to label: String, _ global: GlobalOptions, console: Console
  ) async throws(CommandFailure) -> RenameChange {
    let label = Self.label(label, renaming: target)
    // The label's rules are checked before anything is asked: a usage error costs no unlock.
    if let problem = AccountLabel.problem(with: label) {
      throw AccountAccess.failure(.invalidLabel(label, problem: problem))
    }
    let unanswered = CommandFailure(
      exitCode: .failure,
      message: "the agent got the rename of \(target) but gave no answer, so it may be done or "
        + "not; see `authtui list`",
      code: "agent_no_answer")
    if let answer = await AgentAnswer.ask(
      .rename(account: target, label: label), global, timeout: AgentAnswer.accountsTimeout,
      unanswered: unanswered, \.renamed)
    {
      return try answer.get()
    }
    let book = try await AccountAccess.book(global, console: console, providers: .account(target))
    do {
      return try await book.rename(named: target, to: label)
    } catch {
      throw AccountAccess.failure(error)
    }
  }
}
