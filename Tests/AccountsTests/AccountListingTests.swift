import Accounts
import AuthCore
import Foundation
import TestSupport
import Testing

@testable import Vault

/// Vault stores a provider id as the text it is given; Accounts checks it when it lists.
@Suite struct AccountListingTests {
  @Test func aRowWhoseProviderIDIsNoIDIsListedAsDamaged() async throws {
    let harness = try await AccountsHarness.start()
    let good = try await harness.store(provider: "sandbox", label: "alice")
    let bad = try await harness.store(provider: "Not An Id", label: "bob")

    let listing = try await harness.book.listing()
    #expect(listing.accounts.map(\.id) == [good.id])
    #expect(
      listing.damaged == [
        DamagedAccount(
          id: bad.id, damage: .cellMalformed(column: AccountColumn.providerID.rawValue),
          providerID: "Not An Id", label: "bob")
      ])
    #expect(try good.accountName == AccountName(provider: "sandbox", label: "alice"))
    #expect(
      throws: AccountsError.vault(.accountDamaged(bad.id, .cellMalformed(column: "provider_id")))
    ) {
      _ = try bad.accountName
    }
    // Its name text still reaches it, with the provider alone too, to be removed.
    let byName = try await harness.book.storedAccount(named: "Not An Id/bob")
    #expect(byName == .readable(bad))
    let byProvider = try await harness.book.storedAccount(named: "Not An Id")
    guard case .damaged(let damaged) = byProvider else {
      Issue.record("not reached as damaged: \(byProvider)")
      await harness.stop()
      return
    }
    #expect(damaged.id == bad.id)
    await harness.stop()
  }
}
