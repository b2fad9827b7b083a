import AuthCore
import Foundation
import Vault

extension AccountBook {
  /// How long a refresh lease lasts: one request's deadline plus room to store the answer.
  /// The request is cut off `leaseMargin` before the lease ends, so no second refresh can start
  /// while the first may still succeed. A holder that ends blocks others until its process is
  /// seen gone, and never longer than this.
  var leaseDuration: TimeInterval { requestTimeout + leaseMargin }

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

  /// Refreshes `id` when its token is due under `RefreshSchedule` (a quarter of its lifetime
  /// left, at most five minutes) and returns the account as it stands: the background refresh
  /// of a UI or an agent. The account is read afresh first, so a refresh another process made
  /// since the caller last looked is used, not repeated; processes that find it due at once
  /// share one refresh through the lease, as `refresh` does.
  public func refreshAhead(_ id: AccountID, startedAt: Date) async throws(AccountsError)
    -> AccountRecord
  {
    let record = try await account(id)
    guard !record.needsSignIn, record.tokens.refreshToken != nil,
      let due = RefreshSchedule.refreshAt(
        obtainedAt: record.tokens.obtainedAt, expiresAt: record.tokens.expiresAt),
      await clock.now() >= due
    else { return record }
    return try await refresh(id, startedAt: startedAt)
  }

  /// `validTokens(for:…)`, with the shortfall when the token has less than `minimumValidity`
  /// left because no refresh could be sent (`TokenShortfall`), for the caller to say so.
  public func validTokensNotingShortfall(
    for id: AccountID, minimumValidity: TimeInterval, startedAt: Date
  ) async throws(AccountsError) -> (
    accessToken: String, record: AccountRecord, shortfall: TokenShortfall?
  ) {
    let record = try await vaulted { vault throws(VaultError) in try await vault.account(id) }
    return try await validTokensNotingShortfall(
      from: record, minimumValidity: minimumValidity, startedAt: startedAt)
  }

  /// `accessToken(for:minimumValidity:startedAt:)` with the account as it stands afterwards
  /// (its expiry, after a refresh the new one), for callers that show or write it too.
  public func validTokens(
    for id: AccountID, minimumValidity: TimeInterval, startedAt: Date
  ) async throws(AccountsError) -> (accessToken: String, record: AccountRecord) {
    let record = try await vaulted { vault throws(VaultError) in try await vault.account(id) }
    return try await validTokens(
      from: record, minimumValidity: minimumValidity, startedAt: startedAt)
  }

  /// `accessToken(for:minimumValidity:startedAt:)` for the account `text` names (as
  /// `account(named:)` finds it), read once: what `authtui token` and the agent ask many times
  /// a minute.
  public func accessToken(
    named text: String, minimumValidity: TimeInterval, startedAt: Date
  ) async throws(AccountsError) -> String {
    try await accessToken(
      try AccountReference(parsing: text), minimumValidity: minimumValidity,
      startedAt: startedAt)
  }

  /// `accessToken(named:…)` for the account `reference` points at, the text already read.
  public func accessToken(
    _ reference: AccountReference, minimumValidity: TimeInterval, startedAt: Date
  ) async throws(AccountsError) -> String {
    try await accessTokenNotingShortfall(
      reference, minimumValidity: minimumValidity, startedAt: startedAt
    ).token
  }

  /// `accessToken(_:…)`, with the shortfall when the token has less than `minimumValidity`
  /// left because its refresh was withheld after an interrupted one (`TokenShortfall`), for
  /// `authtui token` and the agent to say so.
  public func accessTokenNotingShortfall(
    _ reference: AccountReference, minimumValidity: TimeInterval, startedAt: Date
  ) async throws(AccountsError) -> (token: String, shortfall: TokenShortfall?) {
    let found = try await validTokensNotingShortfall(
      from: try await account(reference), minimumValidity: minimumValidity,
      startedAt: startedAt)
    return (found.accessToken, found.shortfall)
  }

  /// `accessTokenNotingShortfall(_:…)` for the account `text` names.
  public func accessTokenNotingShortfall(
    named text: String, minimumValidity: TimeInterval, startedAt: Date
  ) async throws(AccountsError) -> (token: String, shortfall: TokenShortfall?) {
    try await accessTokenNotingShortfall(
      try AccountReference(parsing: text), minimumValidity: minimumValidity,
      startedAt: startedAt)
  }

  /// `validTokens(for:…)` starting from `record`, the account as just read from the vault.
  private func validTokens(
    from stored: AccountRecord, minimumValidity: TimeInterval, startedAt: Date
  ) async throws(AccountsError) -> (accessToken: String, record: AccountRecord) {
    let found = try await validTokensNotingShortfall(
      from: stored, minimumValidity: minimumValidity, startedAt: startedAt)
    return (found.accessToken, found.record)
  }

  /// `validTokens(from:…)`, with the shortfall of a token handed out under `minimumValidity`
  /// because no refresh could be sent: an interrupted one may have spent its refresh token, or
  /// the vault cannot keep the answer (a full disk, a vault that cannot be written).
  private func validTokensNotingShortfall(
    from stored: AccountRecord, minimumValidity: TimeInterval, startedAt: Date
  ) async throws(AccountsError) -> (
    accessToken: String, record: AccountRecord, shortfall: TokenShortfall?
  ) {
    let id = stored.id
    var record = stored
    var waitingUntil: Date?
    while true {
      let now = await clock.now()
      if let usable = try usableToken(
        record, minimumValidity: minimumValidity, startedAt: startedAt, now: now)
      {
        return (usable, record, nil)
      }
      guard let refreshToken = record.tokens.refreshToken else {
        throw .signInNeeded(
          try name(of: record), reason: .noRefreshToken(expiresAt: record.tokens.expiresAt))
      }
      let outcome: LeaseOutcome
      do {
        outcome = try await vaulted { vault throws(VaultError) in
          try await vault.beginRefresh(of: id, holder: holder, duration: leaseDuration, now: now)
        }
      } catch .vault(.readOnly(let path, let block)) {
        // A vault that cannot be written cannot keep a refresh's answer: nothing is sent.
        // While the access token lasts, hand it out, as when the disk is full (below).
        let failure = VaultError.readOnly(path: path, block)
        if minimumValidity.isFinite, let token = Self.unexpired(record, now: now) {
          let cause = TokenShortfall.Cause.cannotStore(reason: failure.description)
          return (token, record, shortfall(of: record, minimumValidity, now: now, cause: cause))
        }
        throw .vault(failure)
      }
      switch outcome {
      case .acquired(let lease, let current):
        // Another process may have refreshed between our read and the lease.
        if let usable = try usableToken(
          current, minimumValidity: minimumValidity, startedAt: startedAt, now: now)
        {
          try? await vault.releaseRefresh(lease)
          return (usable, current, nil)
        }
        // A holder ended (or gave up) after sending a refresh with this refresh token: the
        // provider may have spent it, and trying it again would be a reuse that revokes the
        // grant. While the access token lasts, hand it out (even under the minimum asked for).
        if lease.refreshTokenMayBeSpent, let token = current.tokens.accessToken,
          !current.needsSignIn, current.tokens.expiresAt.map({ $0 > now }) ?? true
        {
          try? await vault.releaseRefresh(lease)
          return (
            token, current,
            shortfall(of: current, minimumValidity, now: now, cause: .refreshInterrupted)
          )
        }
        let refreshed: AccountRecord
        do {
          refreshed = try await performRefresh(
            current, refreshToken: current.tokens.refreshToken ?? refreshToken, lease: lease)
        } catch .vault(.noRoomForRefresh(let path, let detail)) {
          // Nothing was sent. While the access token lasts, hand it out (as above); a refresh
          // asked for whatever the expiry (the UI's `r`) is told why it did not happen.
          let failure = VaultError.noRoomForRefresh(path: path, detail: detail)
          if minimumValidity.isFinite, let token = Self.unexpired(current, now: now) {
            let cause = TokenShortfall.Cause.cannotStore(reason: failure.description)
            return (token, current, shortfall(of: current, minimumValidity, now: now, cause: cause))
          }
          throw .vault(failure)
        }
        return (refreshed.tokens.accessToken ?? "", refreshed, nil)
      case .keptAside(let kept):
        // A refresh's answer waits in the side file for room in the vault; the refresh token it
        // replaced is spent. Its access token is the one to hand out while it lasts.
        if let token = Self.unexpired(kept, now: now) { return (token, kept, nil) }
        throw .refreshWaiting(
          try name(of: kept), path: vault.refreshSideFilePath,
          detail: "the disk holding the vault is still full, or failing")
      case .heldByOther(_, let until):
        let limit = waitingUntil ?? until.addingTimeInterval(5)
        waitingUntil = limit
        guard now < limit else { throw .refreshStalled(try name(of: record)) }
        try? await clock.sleep(until: now.addingTimeInterval(Self.leasePollInterval))
        record = try await vaulted { vault throws(VaultError) in try await vault.account(id) }
      }
    }
  }

  /// What a token of `record` handed out under `minimumValidity` lacks, for `cause`; nil for
  /// the UI's `r` (an infinite minimum), which says why nothing happened its own way, or a
  /// record without an expiry or a readable name.
  private func shortfall(
    of record: AccountRecord, _ minimumValidity: TimeInterval, now: Date,
    cause: TokenShortfall.Cause
  ) -> TokenShortfall? {
    guard minimumValidity.isFinite, let expiresAt = record.tokens.expiresAt,
      let account = try? name(of: record)
    else { return nil }
    return TokenShortfall(
      account: account, secondsLeft: Int(expiresAt.timeIntervalSince(now).rounded(.down)),
      minimumValidity: Int(exactly: minimumValidity.rounded(.up)) ?? Int.max, cause: cause)
  }

  /// The access token of `record` while it has not expired (whatever minimum was asked), nil
  /// once it has or when the account needs a sign-in.
  private static func unexpired(_ record: AccountRecord, now: Date) -> String? {
    guard !record.needsSignIn, let token = record.tokens.accessToken,
      record.tokens.expiresAt.map({ $0 > now }) ?? true
    else { return nil }
    return token
  }

  /// `record`'s name, its provider id checked as a request's is (`noSuchProvider`).
  private func name(of record: AccountRecord) throws(AccountsError) -> AccountName {
    AccountName(provider: try providerID(named: record.providerID), label: record.label)
  }

  /// The access token of `record` when it may be handed out as it is, nil when it needs a
  /// refresh, or an error when it can never be used without a new sign-in.
  private func usableToken(
    _ record: AccountRecord, minimumValidity: TimeInterval, startedAt: Date, now: Date
  ) throws(AccountsError) -> String? {
    guard !record.needsSignIn, let token = record.tokens.accessToken else {
      throw .signInNeeded(try name(of: record), reason: .noToken)
    }
    if record.tokens.obtainedAt >= startedAt { return token }
    guard let expiresAt = record.tokens.expiresAt else {
      return minimumValidity.isInfinite && record.tokens.refreshToken != nil ? nil : token
    }
    return expiresAt.timeIntervalSince(now) >= minimumValidity ? token : nil
  }

  /// Refreshes under `lease` and stores the answer with the lease release, or marks the account
  /// when the provider refuses the refresh token, or gives the lease back untouched.
  ///
  /// From the moment the request may leave until its answer is stored, this runs inside the
  /// book's critical section (the process does not end in between), and under a hard deadline
  /// derived from the lease: `leaseMargin` before it lapses, whatever the transport does.
  private func performRefresh(
    _ record: AccountRecord, refreshToken: String, lease: RefreshLease
  ) async throws(AccountsError) -> AccountRecord {
    let providerID: ProviderID
    let provider: OIDCProvider
    let client: ProviderClient
    do {
      providerID = try self.providerID(named: record.providerID)
      provider = try openIDProvider(providerID)
      // The account's DPoP key, if its tokens are bound to one: the refresh token works only
      // with a proof of the key it was issued for (RFC 9449 §5), the same at every refresh.
      client = try await self.client(signingFor: record)
    } catch {
      try? await vault.releaseRefresh(lease)
      throw error
    }
    let vault = self.vault
    let clock = self.clock
    let deadline = lease.expiresAt.addingTimeInterval(-leaseMargin)
    let waited = requestTimeout
    let outcome = await criticalSection.run { () async -> Result<AccountRecord, AccountsError> in
      do throws(VaultError) {
        try await vault.markRefreshSent(lease)
      } catch {
        // Nothing was sent.
        try? await vault.releaseRefresh(lease)
        return .failure(.vault(error))
      }
      let answer = await Deadline.race(until: deadline, clock: clock) {
        () async -> Result<RefreshAnswer, AuthError> in
        do throws(AuthError) {
          let response = try await client.refresh(refreshToken)
          // An id_token in a refresh answer must still be the provider's, for this client,
          // and name the same user (OIDC Core §12.2); there is no nonce to compare.
          do {
            let idToken = try await provider.validateIDToken(in: response, nonce: nil)
            if let idToken, let subject = record.subject, idToken.subject != subject {
              return .success(.otherUser)
            }
            return .success(.confirmed(response))
          } catch {
            // The provider has answered and may have rotated the refresh token: its tokens
            // are kept (the old id_token with them), or the grant would be lost.
            return .success(.idTokenUnchecked(response))
          }
        } catch {
          return .failure(error)
        }
      }
      return await Self.store(
        answer, of: record, named: AccountName(provider: providerID, label: record.label),
        under: lease, in: vault, waited: waited)
    }
    guard let outcome else {
      // The process is ending: nothing was sent.
      try? await vault.releaseRefresh(lease)
      throw .auth(.cancelled)
    }
    return try outcome.get()
  }

  /// A refresh's answer, by what its id_token says.
  private enum RefreshAnswer: Sendable {
    /// No id_token, or one that checks out for the account's user.
    case confirmed(TokenResponse)
    /// An id_token that failed a check (a signing key not fetched yet, a clock far off…): the
    /// tokens are kept without it.
    case idTokenUnchecked(TokenResponse)
    /// An id_token, checked, of another user.
    case otherUser
  }

  /// Stores what the refresh brought (`nil`: the deadline passed first) and ends the lease.
  private static func store(
    _ answer: Result<RefreshAnswer, AuthError>?, of record: AccountRecord,
    named name: AccountName, under lease: RefreshLease, in vault: Vault, waited: TimeInterval
  ) async -> Result<AccountRecord, AccountsError> {
    switch answer {
    case .success(.confirmed(let response))?:
      return await storeRotated(
        record.tokens.updated(with: response), named: name, under: lease, in: vault)
    case .success(.idTokenUnchecked(let response))?:
      var tokens = record.tokens.updated(with: response)
      tokens.idToken = record.tokens.idToken
      return await storeRotated(tokens, named: name, under: lease, in: vault)
    case .success(.otherUser)?:
      _ = try? await vault.markSignInNeeded(lease)
      return .failure(.signInNeeded(name, reason: .refreshNamedAnotherUser))
    case .failure(.refreshTokenRejected)?:
      _ = try? await vault.markSignInNeeded(lease)
      return .failure(
        .signInNeeded(
          name,
          reason: lease.refreshTokenMayBeSpent ? .interruptedRefreshSpentToken : .refreshRejected))
    case .failure(let error)?:
      try? await vault.releaseRefresh(lease, refreshTokenMayBeSpent: Self.mayHaveSpent(error))
      return .failure(.auth(error))
    case nil:
      try? await vault.releaseRefresh(lease, refreshTokenMayBeSpent: true)
      return .failure(.auth(.transport(.timedOut(seconds: waited))))
    }
  }

  /// How many times the answer of a refresh is offered to the vault before it is kept aside,
  /// and the pauses between them: an I/O error may pass, and another process may free space.
  static let storeRetryPauses: [Duration] = [.milliseconds(100), .milliseconds(500)]

  /// Stores the tokens a refresh brought, which the provider now holds as current (the old
  /// refresh token is spent): retried, then kept aside in the side file, and only if that fails
  /// too, lost, with the sign-in to do named.
  private static func storeRotated(
    _ tokens: TokenSet, named name: AccountName,
    under lease: RefreshLease, in vault: Vault
  ) async -> Result<AccountRecord, AccountsError> {
    var failure: VaultError
    var pauses = storeRetryPauses[...]
    while true {
      do throws(VaultError) {
        return .success(try await vault.completeRefresh(lease, tokens: tokens))
      } catch .leaseLost(let id) {
        // Another holder took the account over; what it stored (or will) stands.
        return .failure(.vault(.leaseLost(id)))
      } catch {
        failure = error
      }
      guard let pause = pauses.popFirst() else { break }
      try? await Task.sleep(for: pause)
    }
    let detail = Self.reason(failure)
    do throws(VaultError) {
      try await vault.keepAside(tokens, refreshedUnder: lease)
      return .failure(
        .refreshNotStored(
          name, detail: detail, keptAsideIn: vault.refreshSideFilePath))
    } catch {
      // Lost: the account needs a new sign-in, and should say so rather than try the spent
      // token; if even that cannot be written, the lease's marker says the token may be spent.
      if (try? await vault.markSignInNeeded(lease)) == nil {
        try? await vault.releaseRefresh(lease, refreshTokenMayBeSpent: true)
      }
      return .failure(
        .refreshNotStored(
          name, detail: detail, keptAsideIn: nil))
    }
  }

  /// The vault's reason for a failed store, without its advice.
  private static func reason(_ error: VaultError) -> String {
    if case .storage(_, let detail) = error { return detail }
    return error.description
  }

  /// Whether a refresh that failed with `error` may still have been carried out by the provider
  /// (so its refresh token may be spent): the answer was lost or unreadable, or it arrived and
  /// failed our own checks. A provider's refusal, or no connection at all, spends nothing.
  static func mayHaveSpent(_ error: AuthError) -> Bool {
    switch error {
    case .transport(.cannotConnect), .transport(.hostNotFound), .transport(.insecureConnection),
      .transport(.untrustedCertificate), .tokenRequestRejected,
      .unexpectedStatus, .serverError, .redirectRefused, .insecureEndpoint, .missingEndpoint:
      return false
    default:
      return true
    }
  }
}
