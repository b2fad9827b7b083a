import AuthCore
import Foundation
import Vault

extension AccountBook {
  /// How long a refresh lease lasts: one request's deadline plus room to store the answer.
  /// A holder that crashes blocks others for at most this long.
  var leaseDuration: TimeInterval { requestTimeout + 15 }

  /// How often a process waiting for another's refresh looks at the vault again.
  static let leasePollInterval: TimeInterval = 0.1

  /// A valid access token for `account`: the stored one when it has `minimumValidity` seconds
  /// left, else a refreshed one.
  ///
  /// At most one refresh per call: a token obtained after `startedAt` (by this call or by
  /// another process) is returned even when the provider's lifetime is shorter than
  /// `minimumValidity`. Across processes one refresh runs at a time (the vault's lease); a
  /// caller that finds another refreshing waits for it and uses its result. A refused refresh
  /// token (`invalid_grant`) clears the tokens and marks the account; a network failure leaves
  /// them as they were.
  public func accessToken(
    for id: AccountID, minimumValidity: TimeInterval, startedAt: Date
  ) async throws(AccountsError) -> String {
    try await validTokens(for: id, minimumValidity: minimumValidity, startedAt: startedAt)
      .accessToken
  }

  /// Refreshes `account` now, whatever its expiry (the UI's `r`), unless another process
  /// refreshed it after `startedAt`.
  public func refresh(_ id: AccountID, startedAt: Date) async throws(AccountsError)
    -> AccountRecord
  {
    try await validTokens(for: id, minimumValidity: .infinity, startedAt: startedAt).record
  }

  private func validTokens(
    for id: AccountID, minimumValidity: TimeInterval, startedAt: Date
  ) async throws(AccountsError) -> (accessToken: String, record: AccountRecord) {
    var record = try await vaulted { vault throws(VaultError) in try await vault.account(id) }
    var waitingUntil: Date?
    while true {
      let now = await clock.now()
      if let usable = try usableToken(
        record, minimumValidity: minimumValidity, startedAt: startedAt, now: now)
      {
        return (usable, record)
      }
      guard let refreshToken = record.tokens.refreshToken else {
        throw .signInNeeded(
          provider: record.providerID, label: record.label,
          reason: .noRefreshToken(expiresAt: record.tokens.expiresAt))
      }
      let outcome = try await vaulted { vault throws(VaultError) in
        try await vault.beginRefresh(of: id, holder: holder, duration: leaseDuration, now: now)
      }
      switch outcome {
      case .acquired(let lease, let current):
        // Another process may have refreshed between our read and the lease.
        if let usable = try usableToken(
          current, minimumValidity: minimumValidity, startedAt: startedAt, now: now)
        {
          try? await vault.releaseRefresh(lease)
          return (usable, current)
        }
        let refreshed = try await performRefresh(
          current, refreshToken: current.tokens.refreshToken ?? refreshToken, lease: lease)
        return (refreshed.tokens.accessToken ?? "", refreshed)
      case .heldByOther(_, let until):
        let limit = waitingUntil ?? until.addingTimeInterval(5)
        waitingUntil = limit
        guard now < limit else { throw .refreshStalled(account: record.name) }
        try? await clock.sleep(until: now.addingTimeInterval(Self.leasePollInterval))
        record = try await vaulted { vault throws(VaultError) in try await vault.account(id) }
      }
    }
  }

  /// The access token of `record` when it may be handed out as it is, nil when it needs a
  /// refresh, or an error when it can never be used without a new sign-in.
  private func usableToken(
    _ record: AccountRecord, minimumValidity: TimeInterval, startedAt: Date, now: Date
  ) throws(AccountsError) -> String? {
    guard !record.needsSignIn, let token = record.tokens.accessToken else {
      throw .signInNeeded(provider: record.providerID, label: record.label, reason: .noToken)
    }
    if record.tokens.obtainedAt >= startedAt { return token }
    guard let expiresAt = record.tokens.expiresAt else {
      return minimumValidity.isInfinite && record.tokens.refreshToken != nil ? nil : token
    }
    return expiresAt.timeIntervalSince(now) >= minimumValidity ? token : nil
  }

  /// Refreshes under `lease` and stores the answer with the lease release, or marks the account
  /// when the provider refuses the refresh token, or gives the lease back untouched.
  private func performRefresh(
    _ record: AccountRecord, refreshToken: String, lease: RefreshLease
  ) async throws(AccountsError) -> AccountRecord {
    let provider: OIDCProvider
    let client: ProviderClient
    do {
      provider = try openIDProvider(record.providerID)
      client = try await self.client(for: record.providerID)
    } catch {
      try? await vault.releaseRefresh(lease)
      throw error
    }
    let response: TokenResponse
    do {
      response = try await client.refresh(refreshToken)
      // An id_token in a refresh answer must still be the provider's, for this client
      // (OIDC Core §12.2); there is no nonce to compare.
      _ = try await provider.validateIDToken(in: response, nonce: nil)
    } catch .refreshTokenRejected {
      _ = try await vaulted { vault throws(VaultError) in try await vault.markSignInNeeded(lease) }
      throw .signInNeeded(
        provider: record.providerID, label: record.label, reason: .refreshRejected)
    } catch {
      try? await vault.releaseRefresh(lease)
      throw .auth(error)
    }
    var tokens = TokenSet(response, requestedScopes: record.tokens.scopes)
    // Refresh answers rarely repeat the id_token; keep the sign-in's for the logout hint.
    tokens.idToken = response.idToken ?? record.tokens.idToken
    return try await vaulted { vault throws(VaultError) in
      try await vault.completeRefresh(lease, tokens: tokens)
    }
  }
}
