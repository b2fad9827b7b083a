import AuthCore
import Foundation
import Vault

/// What a sign-out did at the provider; the local account is gone in every case.
public struct SignOutReport: Sendable, Equatable {
  /// The revocation outcome.
  public let revocation: Revocation
  /// The provider's RP-initiated logout address (with `id_token_hint`), to open like a login URL
  /// so the browser session ends too; nil when the provider has none.
  public let endSessionURL: URL?

  /// A report of `revocation`, with the provider's logout address if it has one.
  public init(revocation: Revocation, endSessionURL: URL? = nil) {
    self.revocation = revocation
    self.endSessionURL = endSessionURL
  }
}

extension AccountBook {
  /// Signs `stored` out: a readable account as `signOut(_:localOnly:)` does; a damaged one is
  /// deleted by id without opening a cell, which only `localOnly` allows, since its tokens
  /// cannot be read to revoke them (`revocationImpossible` otherwise, and nothing is deleted).
  public func signOut(_ stored: StoredAccount, localOnly: Bool) async throws(AccountsError)
    -> SignOutReport
  {
    switch stored {
    case .readable(let account):
      return try await signOut(account, localOnly: localOnly)
    case .damaged(let damaged):
      guard localOnly else { throw .revocationImpossible(damaged) }
      try await vaulted { vault throws(VaultError) in try await vault.delete(damaged.id) }
      return SignOutReport(revocation: .skipped, endSessionURL: nil)
    }
  }

  /// Signs `account` out: revokes its refresh token, then its access token, where the provider
  /// can (unless `localOnly`), then deletes it from the vault whatever the provider said.
  ///
  /// The vault is written before anything is revoked: the account is marked "sign-in needed"
  /// with its tokens cleared (this holds them in memory for the revocation), so that a vault
  /// that then cannot delete the row (a full disk) never hands out a revoked token as valid.
  /// If that first write fails, nothing was revoked. The delete is retried; if it still fails,
  /// `signedOutNotRemoved` says what was done and how to remove the entry.
  public func signOut(_ account: AccountRecord, localOnly: Bool) async throws(AccountsError)
    -> SignOutReport
  {
    var revocation = Revocation.skipped
    var endSessionURL: URL?
    var marked = false
    if !localOnly {
      if let id = try? ProviderID(account.providerID), catalog.entry(id)?.configuration != nil {
        do {
          // Loaded before the tokens are cleared, which deletes the key with them: revoking a
          // DPoP-bound token takes a proof of its key (RFC 9449 §5). A key that cannot be read
          // leaves the revocation to fail at the provider, reported; the delete still happens.
          let key = (try? await dpopKey(of: account)) ?? nil
          let client = try await client(for: id).signingProofs(with: key)
          if let moved = TokenOrigin.moved(account, to: client) {
            // Its tokens are not sent to a server that did not issue them, to be revoked or
            // otherwise; the account is still deleted here.
            try await vaulted { vault throws(VaultError) in try await vault.delete(account.id) }
            return SignOutReport(
              revocation: .failed(
                code: "provider_moved",
                message: "it signed in at \(moved.signedInAt), but its provider now sends tokens "
                  + "to \(moved.now), where they were not sent."),
              endSessionURL: nil)
          }
          if account.tokens.accessToken != nil {
            _ = try await vaulted { vault throws(VaultError) in
              try await vault.markSignInNeeded(account.id)
            }
            marked = true
          }
          revocation = try await revoke(account, with: client)
          endSessionURL = try? client.configuration.endSessionURL(
            idTokenHint: account.tokens.idToken)
        } catch .auth(let error) {
          revocation = .failed(error)
        } catch .vault(let error) {
          throw .vault(error)
        } catch {
          revocation = .providerMissing
        }
      } else {
        revocation = .providerMissing
      }
    }
    guard marked else {
      try await vaulted { vault throws(VaultError) in try await vault.delete(account.id) }
      return SignOutReport(revocation: revocation, endSessionURL: endSessionURL)
    }
    var pauses = Self.deleteRetryPauses[...]
    while true {
      do throws(VaultError) {
        try await vault.delete(account.id)
        return SignOutReport(revocation: revocation, endSessionURL: endSessionURL)
      } catch .accountNotFound {
        // Another process removed it meanwhile: what was asked is done.
        return SignOutReport(revocation: revocation, endSessionURL: endSessionURL)
      } catch {
        guard let pause = pauses.popFirst() else {
          let detail: String
          if case .storage(_, let reason) = error { detail = reason } else { detail = "\(error)" }
          var revoked = false
          if case .revoked = revocation { revoked = true }
          throw .signedOutNotRemoved(
            try account.accountName, revoked: revoked, detail: detail)
        }
        try? await Task.sleep(for: pause)
      }
    }
  }

  /// The pauses between the tries of a sign-out's delete, once the tokens were revoked.
  static let deleteRetryPauses: [Duration] = [.milliseconds(100), .milliseconds(500)]

  private func revoke(_ account: AccountRecord, with client: ProviderClient)
    async throws(AccountsError) -> Revocation
  {
    guard let accessToken = account.tokens.accessToken else { return .skipped }
    do {
      switch try await client.revoke(
        accessToken: accessToken, refreshToken: account.tokens.refreshToken)
      {
      case .revoked: return .revoked
      case .unsupported: return .unsupported
      }
    } catch {
      return .failed(error)
    }
  }
}

extension Revocation {
  /// The provider's refusal `error`, as its code and sentence.
  public static func failed(_ error: AuthError) -> Revocation {
    .failed(code: error.code, message: error.message)
  }
}
