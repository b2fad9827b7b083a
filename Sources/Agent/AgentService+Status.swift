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
      accounts = try await book.listing().accounts.map { record in
        var account = Self.status(of: record)
        if account.nextRefresh != nil, let due = planned[record.id] {
          account.nextRefresh = due.timeIntervalSince1970
        }
        return account
      }
    } catch {
      return .failure(failure(.account(error)))
    }
    return .status(
      AgentStatus(
        pid: ProcessInfo.processInfo.processIdentifier, vault: vaultPath,
        since: startedAt.timeIntervalSince1970, idleTimeout: idleTimeout, accounts: accounts))
  }

  static func status(of record: AccountRecord) -> AgentStatus.Account {
    let tokens = record.tokens
    let usable = !record.needsSignIn && tokens.accessToken != nil
    let refreshable = tokens.refreshToken != nil
    let next =
      usable && refreshable
      ? RefreshSchedule.refreshAt(obtainedAt: tokens.obtainedAt, expiresAt: tokens.expiresAt)
      : nil
    return AgentStatus.Account(
      name: record.name, expiresAt: tokens.expiresAt?.timeIntervalSince1970,
      signInNeeded: !usable, refreshable: refreshable, nextRefresh: next?.timeIntervalSince1970)
  }
}
