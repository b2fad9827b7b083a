import AuthCore
import Crypto
import Foundation
import Providers
import Vault

/// One sign-in on its way to becoming an account: the running attempt, and what is needed to
/// finish it (the label asked for; the nonce to check comes from the attempt's request in force,
/// which a restart replaces).
///
/// A UI reads `progress`, may `submitRedirect` (the paste path) or `cancel`, and calls `finish`,
/// which waits for the tokens, validates the id_token and reads the identity, and only then
/// stores the account. Nothing reaches the vault from a cancelled, denied or timed-out attempt.
public struct SignInSession: Sendable {
  /// The provider's id.
  public let providerID: ProviderID
  /// The running attempt, by its kind.
  public let started: StartedSignIn
  /// The label asked for (`--label`), or nil to take the provider's name for the account.
  public let requestedLabel: String?
  let book: AccountBook
  /// Held from the code exchange until the account is stored.
  let section: SignInSection
  /// The key the sign-in binds the tokens to (RFC 9449), stored with the account; nil when
  /// the provider does not use DPoP.
  let dpopKey: P256SigningKey?

  /// The running attempt.
  public var attempt: any SignInAttempt { started.attempt }

  /// The flow.
  public var flow: SignInFlow { attempt.flow }

  /// Every change of the attempt's state, for one reader.
  public var progress: AsyncStream<SignInProgress> { attempt.progress }

  /// Ends the attempt now; `finish` then throws `.auth(.cancelled)`.
  public func cancel() {
    attempt.cancel()
  }

  /// The paste path: the address the browser ended on, checked exactly like a redirect.
  public func submitRedirect(_ pastedURL: String) async throws(AuthError) {
    guard case .browser(let browser) = started else {
      throw .malformedRedirect("this sign-in uses a code, not a browser redirect")
    }
    try await browser.submitRedirect(pastedURL)
  }

  /// Browser flow: the one-time loopback address to give the browser command now (never the
  /// authorization URL, which other users could read in its argv); nil for the code flows.
  /// Each call after the first for a request makes a fresh address, so opening the page again
  /// is not mistaken for another program's fetch.
  public func browserAddress() async -> URL? {
    guard case .browser(let browser) = started else { return nil }
    return await browser.browserAddress()
  }

  /// True when `address` is one of this sign-in's one-time addresses.
  public func isOneTimeAddress(_ address: String) -> Bool {
    guard case .browser(let browser) = started else { return false }
    return browser.isOneTimeAddress(address)
  }

  /// Waits for the attempt and stores the account; returns it, and whether its label is only
  /// the provider's opaque identifier.
  public func finish() async throws(AccountsError) -> SignedInAccount {
    try await book.complete(self)
  }
}

/// An account a sign-in stored, and what its label is made of.
public struct SignedInAccount: Sendable, Equatable {
  /// The account as stored.
  public let record: AccountRecord
  /// Its name.
  public let name: AccountName
  /// True when no label was asked for and the provider named the account only by its opaque
  /// identifier (`AccountIdentity.labelIsSubject`), so the label is something like `1029384`:
  /// the UI asks for a better one, and `login` says how to rename the account.
  public let labelIsSubject: Bool

  /// The account `record`, of `provider`, and what its label is made of.
  init(record: AccountRecord, of provider: ProviderID, labelIsSubject: Bool = false) {
    self.record = record
    name = AccountName(provider: provider, label: record.label)
    self.labelIsSubject = labelIsSubject
  }
}

extension AccountBook {
  /// The flow a sign-in to `providerID` uses (`flow`, or the provider's first) once the
  /// provider is known, its file complete and the flow one it offers: what `beginSignIn`
  /// checks first, and `login` before it opens the vault, so that a typo in the provider or a
  /// missing client id is the first thing it says.
  public static func signInFlow(
    _ providerID: ProviderID, _ flow: SignInFlow?, in catalog: ProviderCatalog
  ) throws(AccountsError) -> SignInFlow {
    let entry = try providerEntry(providerID, in: catalog)
    guard let known = entry.configuration else {
      throw .providerUnusable(providerID, problems: entry.problems.map(\.message))
    }
    let chosen = flow ?? known.flows.first ?? .pkce
    guard known.flows.contains(chosen) else {
      throw .flowNotOffered(provider: providerID, flow: chosen, offered: known.flows)
    }
    return chosen
  }

  /// Starts a sign-in to `providerID` with `flow` (nil: the provider's first flow).
  ///
  /// `loginTimeout` overrides how long a browser sign-in waits for its redirect. What the
  /// caller asked is checked before anything reaches the network or a browser opens, so a
  /// refusal costs the user no sign-in: the provider's readiness, the flow (the catalog's
  /// `flows`, which discovery does not change), and the label (`AccountLabel`; a label an
  /// account already has, stored before the rules, may still sign in again under its name).
  public func beginSignIn(
    provider providerID: ProviderID, flow: SignInFlow? = nil, label: String? = nil,
    loginTimeout: TimeInterval? = nil
  ) async throws(AccountsError) -> SignInSession {
    let chosen = try Self.signInFlow(providerID, flow, in: catalog)
    if let label {
      let existing = try await readableAccount(providerID: providerID, label: label)
      if existing == nil { try AccountLabel.check(label) }
    }
    var client = try await client(for: providerID)
    let section = SignInSection(base: criticalSection, limit: requestTimeout * 2 + 60)
    var configuration = client.configuration
    configuration.loginTimeout = loginTimeout ?? configuration.loginTimeout
    // A fresh key for each sign-in that uses DPoP: the code exchange (or device poll) proves
    // it, and the account keeps it for every later refresh.
    let dpopKey = try Self.signInKey(for: client)
    client = ProviderClient(
      configuration: configuration, transport: client.transport, clock: client.clock,
      requestTimeout: client.requestTimeout, criticalSection: section, dpopKey: dpopKey,
      dpopNonces: client.dpopNonces)
    let started: StartedSignIn
    do {
      started = try await client.startSignIn(chosen, random: AnyRandomSource(random))
    } catch {
      throw .auth(error)
    }
    return SignInSession(
      providerID: providerID, started: started, requestedLabel: label, book: self,
      section: section, dpopKey: dpopKey)
  }

  /// Finishes `session`: tokens, id_token, identity, then the vault.
  ///
  /// From the tokens' arrival (the code exchange runs in the critical section too) until the
  /// account is stored, the process does not end: the code is spent.
  func complete(_ session: SignInSession) async throws(AccountsError) -> SignedInAccount {
    let provider = try openIDProvider(session.providerID)
    // The identity step sends a DPoP-bound token with a proof of the sign-in's key.
    let client = try await client(for: session.providerID).signingProofs(with: session.dpopKey)
    let tokens: TokenResponse
    do {
      tokens = try await session.attempt.tokens()
    } catch {
      await session.section.release()
      throw .auth(error)
    }
    let stored = await criticalSection.run { () async -> Result<SignedInAccount, AccountsError> in
      // Inside the store's section now: the exchange's hold may end.
      await session.section.release()
      do throws(AccountsError) {
        return .success(
          try await self.store(tokens, of: session, provider: provider, client: client))
      } catch .vault(.readOnly(let path, let block)) {
        // The vault became read-only since `login` checked it: the tokens cannot be kept, so
        // the provider is asked to forget them rather than leave a grant nobody holds.
        _ = try? await client.revoke(
          accessToken: tokens.accessToken, refreshToken: tokens.refreshToken)
        return .failure(.vault(.readOnly(path: path, block)))
      } catch {
        return .failure(error)
      }
    }
    guard let stored else {
      await session.section.release()
      throw .auth(.cancelled)
    }
    return try stored.get()
  }

  /// Validates the id_token of a sign-in's `tokens`, reads the identity, stores the account
  /// with the sign-in's DPoP key, if it made one (kept even when the server issued a Bearer
  /// access token: RFC 9449 §5 binds a public client's refresh token to the key all the same).
  ///
  /// A sign-in that asked for no label updates the account the label derived from the
  /// provider's name leads to; when there is none, the account of the same provider and
  /// subject, which its user renamed (`rename(named:to:)`), rather than adding a second one
  /// beside it.
  private func store(
    _ tokens: TokenResponse, of session: SignInSession, provider: OIDCProvider,
    client: ProviderClient
  ) async throws(AccountsError) -> SignedInAccount {
    let providerID = session.providerID
    let identity: AccountIdentity?
    do {
      // The request whose code was exchanged: an attempt that signed in no longer restarts.
      let nonce: String?
      switch session.started {
      case .browser(let browser): nonce = await browser.request.nonce
      case .userCode: nonce = nil
      }
      let idToken = try await provider.validateIDToken(in: tokens, nonce: nonce)
      identity = try await client.identity(for: tokens, idToken: idToken)
    } catch {
      throw .auth(error)
    }
    let label = session.requestedLabel ?? AccountLabel.derived(from: identity?.label)
    let tokenSet = TokenSet(tokens, requestedScopes: client.configuration.scopes)
    var fields: [String: String] = [:]
    fields["email"] = identity?.email
    fields["name"] = identity?.name
    fields["provider_label"] = identity?.label
    fields["tenant"] = identity?.tenant
    fields[TokenOrigin.field] = TokenOrigin.of(client.configuration.tokenEndpoint)

    let labelIsSubject = session.requestedLabel == nil && identity?.labelIsSubject == true
    if let existing = try await readableAccount(providerID: providerID, label: label) {
      if let stored = existing.subject, let signedIn = identity?.subject, stored != signedIn {
        throw .labelTaken(try existing.accountName)
      }
      let updated = try await vaulted { vault throws(VaultError) in
        try await vault.updateTokens(
          of: existing.id, to: tokenSet, dpopKey: session.dpopKey,
          identity: Self.identity(existing, issuedAt: fields[TokenOrigin.field]))
      }
      return SignedInAccount(record: updated, of: providerID, labelIsSubject: labelIsSubject)
    }
    if session.requestedLabel == nil, let subject = identity?.subject,
      let renamed = try await listing().accounts.first(where: {
        $0.providerID == providerID.rawValue && $0.subject == subject
      })
    {
      let updated = try await vaulted { vault throws(VaultError) in
        try await vault.updateTokens(
          of: renamed.id, to: tokenSet, dpopKey: session.dpopKey,
          identity: Self.identity(renamed, issuedAt: fields[TokenOrigin.field]))
      }
      return SignedInAccount(record: updated, of: providerID)
    }
    let account = NewAccount(
      providerID: providerID.rawValue, label: label, subject: identity?.subject, identity: fields,
      tokens: tokenSet)
    let inserted = try await vaulted { vault throws(VaultError) in
      try await vault.insert(account, dpopKey: session.dpopKey)
    }
    return SignedInAccount(record: inserted, of: providerID, labelIsSubject: labelIsSubject)
  }

  /// `record`'s identity fields with the new sign-in's token origin (`TokenOrigin`): a sign-in
  /// at a moved provider makes its new server the one the account's tokens go back to.
  private static func identity(_ record: AccountRecord, issuedAt origin: String?) -> [String:
    String]
  {
    var identity = record.identity
    identity[TokenOrigin.field] = origin
    return identity
  }
}

extension AccountBook {
  /// The account a sign-in under `providerID`/`label` would update, nil when it creates one.
  ///
  /// A damaged account of this name (or one the lookup index files under it while its name cells
  /// do not open) is not replaced silently, nor is a second account put beside it: its tokens were
  /// never revoked and the damage may be someone's doing, so `damagedAccount` tells the user to
  /// remove it by id, then sign in again.
  private func readableAccount(providerID: ProviderID, label: String)
    async throws(AccountsError) -> AccountRecord?
  {
    let stored = try await vaulted { vault throws(VaultError) in
      try await vault.storedAccount(providerID: providerID.rawValue, label: label)
    }
    switch stored {
    case .readable(let account): return account
    case .damaged(let damaged): throw .damagedAccount(damaged, requested: "\(providerID)/\(label)")
    case nil: return nil
    }
  }

  /// Damaged accounts that might have been `account` before it was signed in: those whose name
  /// does not fully open (and whose lookup index did not file them under the name either, or the
  /// sign-in would have been refused), so no lookup can tell, and whose readable part, if any,
  /// agrees. Refusing every sign-in while such a row exists would lock the user out over a row
  /// that may be anything; so the sign-in goes ahead, and the command names these rows instead
  /// of staying silent.
  public func damagedAccounts(perhapsNamedLike account: AccountName)
    async throws(AccountsError) -> [DamagedAccount]
  {
    try await listing().damaged.filter { damaged in
      damaged.name == nil && damaged.providerID.map { $0 == account.provider.rawValue } != false
        && damaged.label.map { $0 == account.label } != false
    }
  }
}
