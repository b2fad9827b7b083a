import Accounts
import Foundation
import Vault

extension AccountBook {
  /// What `authtui token ACCOUNT --header --for METHOD URL` prints for the account `text`
  /// names: a token with `minimumValidity` seconds left at least (refreshed first when needed,
  /// one obtained after `startedAt` taken as it is) and, when it is DPoP-bound, a proof for a
  /// `method` request to `url` (with `ath`), signed here with the account's key from the
  /// vault. The agent answers the same, so the key never leaves the process holding the vault.
  package func proof(
    named text: String, method: String, url: URL, startedAt: Date,
    minimumValidity: TimeInterval = 60
  ) async throws(AccountsError) -> AgentProof {
    let account = try await account(named: text)
    let (token, stored, shortfall) = try await validTokensNotingShortfall(
      for: account.id, minimumValidity: minimumValidity, startedAt: startedAt)
    let name = try stored.accountName
    guard stored.tokens.isDPoPBound else {
      return AgentProof(account: name, token: token, proof: nil, note: shortfall?.message)
    }
    let proof = try await resourceProof(for: stored, accessToken: token, method: method, url: url)
    return AgentProof(account: name, token: token, proof: proof, note: shortfall?.message)
  }
}
