import Foundation
import TestSupport
import Testing
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// Tokens of a refresh the vault could not store, kept aside in its side file
/// (`vault.db-refresh`) and stored later: only over the account version they replace.
@Suite struct KeptAsideRefreshTests {
  let start = Date(timeIntervalSince1970: 1_750_000_000)

  func rotated(_ number: Int) -> TokenSet {
    TokenSet(
      accessToken: "at-\(number)", refreshToken: "rt-\(number)", idToken: "id-\(number)",
      scopes: ["openid"], expiresAt: start.addingTimeInterval(3600), obtainedAt: start,
      refreshValidity: DateInterval(start: start, duration: 86400))
  }

  /// A vault with one account and a sent refresh of it (its lease, marked sent).
  func sentRefresh() async throws -> (VaultFixture, Vault, AccountRecord, RefreshLease) {
    let fixture = try VaultFixture()
    let account = try await fixture.createClosedVault(with: [VaultFixture.account(1)])[0]
    let vault = try await fixture.unlocked()
    guard
      case .acquired(let lease, _) = try await vault.beginRefresh(
        of: account.id, holder: "test", duration: 30, now: start)
    else { throw VaultError.leaseLost(account.id) }
    try await vault.markRefreshSent(lease)
    return (fixture, vault, account, lease)
  }

  @Test func markingARefreshSentGivesTheSideFileItsRoomPrivately() async throws {
    let (fixture, vault, _, _) = try await sentRefresh()
    var info = stat()
    #expect(lstat(fixture.path + "-refresh", &info) == 0)
    #expect(info.st_mode & 0o7777 == 0o600)
    #expect(info.st_size == (1 << 20) + (1 << 16))
    #expect(vault.refreshSideFilePath == fixture.path + "-refresh")
    let contents = try Data(contentsOf: URL(fileURLWithPath: fixture.path + "-refresh"))
    #expect(contents.allSatisfy { $0 == 0 })
  }

  @Test func keptAsideTokensAreStoredAtTheNextUnlockAndTheRecordWiped() async throws {
    let (fixture, vault, account, lease) = try await sentRefresh()
    try await vault.keepAside(rotated(2), refreshedUnder: lease)
    let side = try Data(contentsOf: URL(fileURLWithPath: fixture.path + "-refresh"))
    #expect(!side.allSatisfy { $0 == 0 })
    // Sealed: no token is in the file as it is.
    #expect(side.range(of: Data("rt-2".utf8)) == nil)
    #expect(side.range(of: Data("at-2".utf8)) == nil)
    await vault.close()

    let reopened = try await fixture.unlocked()
    let stored = try await reopened.account(account.id)
    #expect(stored.tokens == rotated(2))
    #expect(stored.version == account.version + 1)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: fixture.path + "-refresh")).allSatisfy { $0 == 0 })
    // The lease the holder could not give back is gone with it: the next refresh starts at once,
    // and nothing says the (new) refresh token may be spent.
    guard
      case .acquired(let next, _) = try await reopened.beginRefresh(
        of: account.id, holder: "next", duration: 30, now: start.addingTimeInterval(1))
    else {
      Issue.record("the next refresh did not get the lease")
      return
    }
    #expect(!next.refreshTokenMayBeSpent)
  }

  @Test func keptAsideTokensAreStoredByTheNextRefreshOfAnOpenVault() async throws {
    let (fixture, vault, account, lease) = try await sentRefresh()
    defer { withExtendedLifetime(fixture) {} }
    try await vault.keepAside(rotated(2), refreshedUnder: lease)
    guard
      case .acquired(_, let current) = try await vault.beginRefresh(
        of: account.id, holder: "next", duration: 30, now: start.addingTimeInterval(1))
    else {
      Issue.record("the next refresh did not get the lease")
      return
    }
    #expect(current.tokens == rotated(2))
  }

  @Test func aRecordOverAnAccountThatChangedSinceIsDroppedNotStored() async throws {
    let (fixture, vault, account, lease) = try await sentRefresh()
    try await vault.keepAside(rotated(2), refreshedUnder: lease)
    // A new sign-in came in between: its tokens are the newer ones.
    let signedIn = try await vault.updateTokens(of: account.id, to: rotated(3))
    await vault.close()
    let reopened = try await fixture.unlocked()
    #expect(try await reopened.account(account.id) == signedIn)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: fixture.path + "-refresh")).allSatisfy { $0 == 0 })
  }

  @Test func aRecordCopiedToAnotherAccountDoesNotOpen() async throws {
    let fixture = try VaultFixture()
    let accounts = try await fixture.createClosedVault(
      with: [VaultFixture.account(1), VaultFixture.account(2)])
    let vault = try await fixture.unlocked()
    guard
      case .acquired(let lease, _) = try await vault.beginRefresh(
        of: accounts[0].id, holder: "test", duration: 30, now: start)
    else { throw VaultError.leaseLost(accounts[0].id) }
    try await vault.markRefreshSent(lease)
    try await vault.keepAside(rotated(2), refreshedUnder: lease)
    await vault.close()
    // Rewrite the record's account id (plaintext bookkeeping) to the other account's.
    let path = fixture.path + "-refresh"
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    bytes[11] = UInt8(truncatingIfNeeded: accounts[1].id.rawValue)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let reopened = try await fixture.unlocked()
    #expect(try await reopened.account(accounts[1].id) == accounts[1])
    #expect(try await reopened.account(accounts[0].id) == accounts[0])
  }

  @Test func aSymlinkAtTheSideFileIsRefusedAndTheRefreshNotSent() async throws {
    let fixture = try VaultFixture()
    let account = try await fixture.createClosedVault(with: [VaultFixture.account(1)])[0]
    let elsewhere = fixture.directory.file("elsewhere")
    #expect(FileManager.default.createFile(atPath: elsewhere, contents: Data()))
    try FileManager.default.createSymbolicLink(
      atPath: fixture.path + "-refresh", withDestinationPath: elsewhere)
    let vault = try await fixture.unlocked()
    guard
      case .acquired(let lease, _) = try await vault.beginRefresh(
        of: account.id, holder: "test", duration: 30, now: start)
    else { throw VaultError.leaseLost(account.id) }
    await #expect(
      throws: VaultError.storage(
        path: fixture.path + "-refresh",
        detail: "it is not a regular file of yours with mode 0600 (a symlink, or another user's "
          + "file): authtui keeps refreshed tokens there; move it away")
    ) {
      try await vault.markRefreshSent(lease)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: elsewhere)).isEmpty)
  }
}
