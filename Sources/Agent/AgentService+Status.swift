import Accounts
import Foundation
import Vault

extension AgentService {
  /// The answer to `status`: this agent, its vault, and each account with its next refresh:
  /// the refresher's plan (a failed refresh's retry included), else the time `RefreshSchedule`
  /// (the UI's schedule) gives it.
  func status() async -> AgentResponse {
    let accounts: [AgentStatus.Account]
    do {
      let planned = await refresher.nextRefreshes()
      accounts = try await book.listing().accounts.map { record throws(AccountsError) in
        var account = try Self.status(of: record)
        if account.nextRefresh != nil, let due = planned[record.id] {
          account.nextRefresh = due
        }
        return account
      }
    } catch {
      return .failure(failure(.account(error)))
    }
    var status = AgentStatus(
      pid: ProcessInfo.processInfo.processIdentifier, vault: vaultPath,
      since: startedAt.timeIntervalSince1970, idleTimeout: idleTimeout,
      endsAt: endsAt?.timeIntervalSince1970, accounts: accounts, requests: records)
    // The oldest requests give way when the answer would be longer than a client reads
    // (long account names, many accounts).
    while !status.requests.isEmpty,
      AgentResponse.status(status).line.utf8.count + 1 > AgentConnection.maximumAnswerBytes
    {
      status.requests.removeFirst(max(1, status.requests.count / 4))
    }
    return .status(status)
  }

  static func status(of record: AccountRecord) throws(AccountsError) -> AgentStatus.Account {
    let account = try AccountSummary(record)
    let next =
      account.usable && account.refreshable
      ? RefreshSchedule.refreshAt(
        obtainedAt: record.tokens.obtainedAt, expiresAt: record.tokens.expiresAt)
      : nil
    return AgentStatus.Account(account, nextRefresh: next)
  }
}
