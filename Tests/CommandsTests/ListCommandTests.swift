import Agent
import AuthCore
import Foundation
import Spelling
import Testing
import Vault

@testable import Commands

/// `authtui list`'s table: the UI's order and its column widths.
@Suite struct ListCommandTests {
  static let now = Date(timeIntervalSince1970: 1_750_000_000)

  static func record(
    _ id: Int64, _ provider: String, _ label: String, needsSignIn: Bool = false,
    expiresIn: TimeInterval? = 3600
  ) -> AccountRecord {
    AccountRecord(
      id: AccountID(id), version: 1, providerID: provider, label: label, subject: nil,
      identity: [:],
      tokens: TokenSet(
        accessToken: needsSignIn ? nil : "token-\(id)", refreshToken: nil, tokenType: "Bearer",
        scopes: ["openid"], expiresAt: expiresIn.map { now.addingTimeInterval($0) },
        obtainedAt: now),
      needsSignIn: needsSignIn)
  }

  /// The accounts `list` prints for `records`, in its order, through the listing the agent
  /// would send.
  static func rows(_ records: [AccountRecord]) -> [AccountSummary] {
    ListCommand.ordered(AgentListing(AccountListing(accounts: records, damaged: [])).accounts)
  }

  /// Thousands of accounts of a removed provider are one line on standard error, not one each.
  @Test func theAccountsOfAProviderThatIsGoneAreOneLine() {
    let work: ProviderID = "work"
    let names = (0..<3).map { AccountName(provider: work, label: "user-\($0)") }
    #expect(
      ListCommand.providerMissing(work, names)
        == "authtui: 3 accounts of work (work/user-0, …) are neither refreshed nor revoked: "
        + "their provider work is not configured any more; add it back, or remove each with "
        + "`authtui logout 'work/LABEL' --local-only`")
    #expect(
      ListCommand.providerMissing(work, [names[1]])
        == "authtui: work/user-1's provider work is not configured any more, so its token is "
        + "neither refreshed nor revoked: add the provider back, or remove the account with "
        + "`authtui logout 'work/user-1' --local-only`")
  }

  @Test func labelsAreInNaturalOrderAsInTheUI() {
    let records = [
      Self.record(1, "work", "user10"), Self.record(2, "work", "user2"),
      Self.record(3, "simkl", "zed"), Self.record(4, "work", "User1"),
      Self.record(5, "work", "alice"), Self.record(6, "work", "user1"),
    ]
    let rows = Self.rows(records)
    #expect(
      rows.map(\.name.description) == [
        "simkl/zed", "work/alice", "work/User1", "work/user1", "work/user2", "work/user10",
      ])
    // The table prints them in that order too.
    let accounts = ListCommand.table(rows, now: Self.now).split(separator: "\n").dropFirst().map {
      String($0.prefix { $0 != " " })
    }
    #expect(accounts == rows.map(\.name.description))
  }

  @Test func wideLabelsKeepTheColumnsAligned() {
    let records = [
      Self.record(1, "simkl", "日本語のアカウント"), Self.record(2, "work", "🔑 ops-team"),
      Self.record(3, "work", "bob"), Self.record(4, "work", "carol", needsSignIn: true),
    ]
    let lines = ListCommand.table(Self.rows(records), now: Self.now)
      .split(separator: "\n").map(String.init)
    #expect(lines.count == 5)
    // Every line's STATUS cell starts at the same terminal column.
    let starts = zip(lines, ["STATUS", "valid", "valid", "sign-in needed", "valid"]).map {
      line, status in
      line.range(of: status).map { DisplayWidth.of(line[..<$0.lowerBound]) }
    }
    #expect(starts.allSatisfy { $0 != nil && $0 == starts[0] }, "\(lines)")
    #expect(starts[0] == DisplayWidth.of("simkl/日本語のアカウント") + 2)
  }

  @Test func anAccountThatNeedsASignInHasNoExpiryAsInTheUI() {
    let rows = Self.rows(
      [Self.record(1, "work", "carol", needsSignIn: true, expiresIn: -60)])
    let line =
      ListCommand.table(rows, now: Self.now).split(separator: "\n").last.map(String.init) ?? ""
    #expect(line.hasPrefix("work/carol  sign-in needed  —  "), "\(line)")
  }

  @Test func aRefreshTokenWithAKnownEndSaysUntilWhen() {
    var weekLong = Self.record(1, "google", "me")
    var tokens = weekLong.tokens
    tokens.refreshToken = "rt"
    tokens.refreshValidity = DateInterval(start: Self.now, duration: 604_800)
    weekLong = AccountRecord(
      id: weekLong.id, version: 1, providerID: "google", label: "me", subject: nil,
      identity: [:], tokens: tokens, needsSignIn: false)
    let rows = Self.rows([weekLong, Self.record(2, "simkl", "alice")])
    #expect(rows.map { $0.refreshEnd.map(InternetTime.text) } == ["2025-06-22T15:06:40Z", nil])
    let lines = ListCommand.table(rows, now: Self.now).split(separator: "\n").map(String.init)
    #expect(lines[1].contains("  until 2025-06-22T15:06:40Z  openid"), "\(lines)")
    #expect(lines[2].contains("  no  "), "\(lines)")
    #expect(
      ListCommand.json(rows, now: Self.now).contains(
        #""default":false,"refresh_expires_at":"2025-06-22T15:06:40Z","tenant":null,"#
          + #""dpop_bound":false,"dpop_jkt":null}"#))
    #expect(
      ListCommand.json(rows, now: Self.now).contains(
        #""default":false,"refresh_expires_at":null,"tenant":null,"dpop_bound":false,"#
          + #""dpop_jkt":null}"#))
    // A week on, it has ended.
    let later = ListCommand.table(Self.rows([weekLong]), now: Self.now.addingTimeInterval(604_800))
    #expect(later.contains("  ended 2025-06-22T15:06:40Z  openid"))
  }

  @Test func aDPoPBoundAccountSaysSoWithItsKeysThumbprint() {
    var bound = Self.record(1, "work", "dana")
    var tokens = bound.tokens
    tokens.tokenType = "DPoP"
    bound = AccountRecord(
      id: bound.id, version: 1, providerID: "work", label: "dana", subject: nil, identity: [:],
      tokens: tokens, needsSignIn: false,
      dpopThumbprint: "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
    // A key held beside a Bearer token (the server did not bind it): not bound, no jkt.
    let unbound = AccountRecord(
      id: AccountID(2), version: 1, providerID: "work", label: "erin", subject: nil,
      identity: [:], tokens: Self.record(2, "work", "erin").tokens, needsSignIn: false,
      dpopThumbprint: "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
    let json = ListCommand.json(Self.rows([bound, unbound]), now: Self.now)
    #expect(
      json.contains(
        #""tenant":null,"dpop_bound":true,"dpop_jkt":"NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"}"#
      ),
      "\(json)")
    #expect(json.contains(#""label":"erin""#))
    #expect(json.hasSuffix(#""tenant":null,"dpop_bound":false,"dpop_jkt":null}]"#), "\(json)")
  }
}
