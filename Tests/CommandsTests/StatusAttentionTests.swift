import Agent
import Foundation
import TestSupport
import Testing

@testable import Commands

/// Which accounts `authtui status` says need attention, and the fix it prints for each.
@Suite struct StatusAttentionTests {
  static let now = Date(timeIntervalSince1970: 1_750_000_000)

  static func account(
    _ label: String, usable: Bool = true, refreshable: Bool = false, expiresIn: TimeInterval?,
    obtainedAgo: TimeInterval? = 0, refreshIssuedAgo: TimeInterval? = nil,
    refreshEndsIn: TimeInterval = 0
  ) -> AccountSummary {
    AccountSummary(
      name: AccountName(provider: "simkl", label: label), hasAccessToken: usable,
      expiresAt: expiresIn.map { now.addingTimeInterval($0) },
      obtainedAt: obtainedAgo.map { now.addingTimeInterval(-$0) }, tokenType: nil,
      refreshable: refreshable,
      refreshValidity: refreshIssuedAgo.map {
        DateInterval(
          start: now.addingTimeInterval(-$0), end: now.addingTimeInterval(refreshEndsIn))
      })
  }

  static func problems(_ accounts: [AccountSummary]) -> [String: String] {
    Dictionary(
      uniqueKeysWithValues: StatusCommand.attention(
        AgentListing(accounts: accounts, damaged: []), now: now
      ).map { ($0.account, $0.problem.rawValue) })
  }

  @Test func anAccountWhoseProviderIsGoneNeedsAttentionWithItsRemoval() {
    let items = StatusCommand.attention(
      AgentListing(
        accounts: [Self.account("left", refreshable: true, expiresIn: 3600)], damaged: []),
      now: Self.now, knownProviders: ["github"])
    #expect(
      items == [
        StatusCommand.Attention(
          account: "simkl/left", reference: "simkl/left", problem: .providerMissing,
          message: "its provider simkl is not configured any more, so its token is neither "
            + "refreshed nor revoked: add the provider back, or remove the account",
          fix: "authtui logout 'simkl/left' --local-only")
      ])
    // Among the known providers, the same account is fine.
    #expect(
      StatusCommand.attention(
        AgentListing(
          accounts: [Self.account("left", refreshable: true, expiresIn: 3600)], damaged: []),
        now: Self.now, knownProviders: ["simkl"]
      ).isEmpty)
  }

  @Test func aRefreshableOrLongLivedAccountIsFine() {
    #expect(
      Self.problems([
        Self.account("refreshes", refreshable: true, expiresIn: -60),
        Self.account("never", expiresIn: nil),
        // A 1-hour token with 50 minutes left: not yet its last quarter.
        Self.account("fresh", expiresIn: 3000, obtainedAgo: 600),
      ]).isEmpty)
  }

  @Test func theUIsNoticeRuleSaysWhenOneWithoutARefreshTokenNeedsASignIn() {
    #expect(
      Self.problems([
        // Its last quarter (14 of 60 minutes left).
        Self.account("quarter", expiresIn: 840, obtainedAgo: 2760),
        // Simkl's 5-year token: three days ahead at most, so two days before is in.
        Self.account("years", expiresIn: 2 * 86_400, obtainedAgo: 5 * 365 * 86_400),
        Self.account("fourdays", expiresIn: 4 * 86_400, obtainedAgo: 5 * 365 * 86_400),
        Self.account("gone", expiresIn: -1),
        Self.account("signin", usable: false, refreshable: true, expiresIn: 3600),
      ]) == [
        "simkl/quarter": "expiring_without_refresh", "simkl/years": "expiring_without_refresh",
        "simkl/gone": "expired", "simkl/signin": "sign_in_needed",
      ])
  }

  @Test func aRefreshTokenThatEndsSaysToSignInAgainByTheSameRule() {
    let week: TimeInterval = 7 * 86_400
    let items = StatusCommand.attention(
      AgentListing(
        accounts: [
          // Google's 7-day refresh token: its last quarter (42 hours), so the sixth day is in
          // and the fifth is not, however recent the last refresh.
          Self.account(
            "day6", refreshable: true, expiresIn: 3000, obtainedAgo: 600,
            refreshIssuedAgo: 6 * 86_400, refreshEndsIn: 86_400),
          Self.account(
            "day5", refreshable: true, expiresIn: 3000, obtainedAgo: 600,
            refreshIssuedAgo: 5 * 86_400, refreshEndsIn: 2 * 86_400),
          Self.account(
            "ended", refreshable: true, expiresIn: 3000, obtainedAgo: 600,
            refreshIssuedAgo: week + 60, refreshEndsIn: -60),
          // Without a refresh token, its validity is not what ends the account.
          Self.account(
            "norefresh", expiresIn: 30 * 86_400, obtainedAgo: 60, refreshIssuedAgo: week,
            refreshEndsIn: -60),
        ], damaged: []),
      now: Self.now)
    #expect(items.map(\.account) == ["simkl/day6", "simkl/ended"])
    #expect(items.map(\.problem.rawValue) == ["refresh_expiring", "refresh_expired"])
    #expect(
      items.first?.message
        == "its refresh token ends 2025-06-16T15:06:40Z, and no refresh works after that: "
        + "sign in again before then")
    #expect(
      items.last?.message
        == "its refresh token ended 2025-06-15T15:05:40Z: the provider refuses the next refresh")
    #expect(items.allSatisfy { $0.fix == "authtui login simkl --label \($0.account.dropFirst(6))" })
  }

  @Test func eachFixIsTheCommandToRunWithTheLabelQuotedForTheShell() {
    let items = StatusCommand.attention(
      AgentListing(
        accounts: [Self.account("work mail", usable: false, expiresIn: nil)],
        damaged: [
          AgentListing.Damaged(id: 3, name: nil, damage: "its label cell failed authentication")
        ]),
      now: Self.now)
    #expect(
      items.map(\.fix) == [
        "authtui login simkl --label 'work mail'", "authtui logout '#3' --local-only",
      ])
    #expect(items.map(\.account) == ["simkl/work mail", "#3"])
    #expect(
      items.last?.message == "damaged (its label cell failed authentication) and cannot be read")
  }
}
