import AuthCore
import Crypto
import Foundation
import Providers
import Spelling
import Vault

/// The accounts of one vault, with the providers that issued them: what the command line and
/// the interactive UI both work through.
///
/// It names accounts, signs in (storing an account only once its tokens and identity are in),
/// hands out valid access tokens (refreshing at most once per call, one refresh at a time across
/// every authtui process through the vault's lease), refreshes on demand, and signs out
/// (revocation, then local deletion). Provider metadata (OpenID discovery, JWKS) is fetched once
/// per run and kept here.
public actor AccountBook {
  /// The vault, unlocked.
  public nonisolated let vault: Vault
  /// The providers.
  public nonisolated let catalog: ProviderCatalog
  /// The network.
  public nonisolated let transport: any Transport
  /// The time.
  public nonisolated let clock: any WallClock
  /// Randomness for sign-in secrets.
  public nonisolated let random: any RandomSource
  /// Names this process as a refresh-lease holder.
  public nonisolated let holder: String
  /// How long one request to a provider may take.
  public nonisolated let requestTimeout: TimeInterval
  /// How much of a refresh lease is kept, after the request's deadline, for storing its answer.
  public nonisolated let leaseMargin: TimeInterval
  /// Runs a refresh, from its request to its stored answer, so that the process does not end
  /// in between (the composition root's signal handling).
  public nonisolated let criticalSection: any CriticalSection
  /// The latest DPoP nonce each server gave (RFC 9449 §8), shared by every request of this
  /// book, whichever account or provider it is for: the next proof to that server carries it.
  public nonisolated let dpopNonces = DPoPNonces()

  private var openIDProviders: [ProviderID: OIDCProvider] = [:]

  public init(
    vault: Vault, catalog: ProviderCatalog, transport: any Transport,
    clock: any WallClock = SystemClock(), random: any RandomSource = SystemRandomSource(),
    requestTimeout: TimeInterval = 30, leaseMargin: TimeInterval = 15,
    criticalSection: any CriticalSection = UnguardedSection()
  ) {
    self.vault = vault
    self.catalog = catalog
    self.transport = transport
    self.clock = clock
    self.random = random
    self.requestTimeout = requestTimeout
    self.leaseMargin = leaseMargin
    self.criticalSection = criticalSection
    self.holder =
      "pid \(ProcessInfo.processInfo.processIdentifier) "
      + Base64URL.encode(random.bytes(count: 6))
  }

  // MARK: Accounts

  /// Every account (decrypted), and the ids of damaged ones. A row whose provider id is no id
  /// is damaged too (see `AccountRecord.accountName`), so every listed account has a name.
  public func listing() async throws(AccountsError) -> AccountListing {
    let stored = try await vaulted { vault throws(VaultError) in try await vault.listAccounts() }
    return Self.named(stored, checking: stored.accounts).listing
  }

  /// `listing()` brought up to date from `previous`, a listing this book gave: only the rows
  /// written since are read and decrypted (`Vault.listAccounts(updating:)`), which is what a
  /// reload after another process wrote the vault needs.
  public func listing(updating previous: AccountListing) async throws(AccountsError)
    -> AccountListingUpdate
  {
    let stored = try await vaulted { vault throws(VaultError) in
      try await vault.listAccounts(updating: previous)
    }
    // Only the records read afresh can be new to the check.
    let (listing, malformed) = Self.named(stored.listing, checking: stored.changed)
    guard !malformed.isEmpty else { return stored }
    let wasListed = Set(previous.accounts.map(\.id))
    return AccountListingUpdate(
      listing: listing, changed: stored.changed.filter { !malformed.contains($0.id) },
      removed: (stored.removed + malformed.filter(wasListed.contains)).sorted(),
      rowsRead: stored.rowsRead)
  }

  /// `stored` with those of `candidates` whose provider id is no id moved to the damaged
  /// accounts, and their ids.
  private static func named(_ stored: AccountListing, checking candidates: [AccountRecord])
    -> (listing: AccountListing, malformed: Set<AccountID>)
  {
    var damaged = stored.damaged
    var malformed: Set<AccountID> = []
    for record in candidates where (try? record.accountName) == nil {
      malformed.insert(record.id)
      damaged.append(
        DamagedAccount(
          id: record.id, damage: AccountRecord.malformedProviderID,
          providerID: record.providerID, label: record.label))
    }
    guard !malformed.isEmpty else { return (stored, []) }
    let accounts = stored.accounts.filter { !malformed.contains($0.id) }
    return (
      AccountListing(
        accounts: accounts, damaged: damaged.sorted { $0.id < $1.id },
        defaults: stored.defaults.subtracting(malformed)),
      malformed
    )
  }

  /// The account with row id `id`, as stored now.
  public func account(_ id: AccountID) async throws(AccountsError) -> AccountRecord {
    try await vaulted { vault throws(VaultError) in try await vault.account(id) }
  }

  /// The account `text` names (`provider/label`, a bare provider with one account, or `#N`), as
  /// far as its cells open: a damaged account is returned, not thrown, so that it can be removed.
  /// `#ID` reaches any row; `PROVIDER/LABEL` reaches a damaged one through its name cells when
  /// they open, and through the lookup index otherwise, in which case the name cannot be
  /// confirmed and `damagedAccount` asks for the `#ID` instead.
  public func storedAccount(named text: String) async throws(AccountsError) -> StoredAccount {
    try await storedAccount(try AccountReference(parsing: text))
  }

  /// The account `reference` points at, as `storedAccount(named:)` finds it.
  public func storedAccount(_ reference: AccountReference) async throws(AccountsError)
    -> StoredAccount
  {
    let text = reference.text
    switch reference.target {
    case .rowID(let id):
      do {
        return try await vault.storedAccount(id)
      } catch .accountNotFound {
        throw .noSuchAccount(text, suggestions: [])
      } catch {
        throw .vault(error)
      }
    case .name(let name):
      return try await storedAccount(provider: name.provider.rawValue, label: name.label, text)
    case .storedText(let provider, let label?):
      return try await storedAccount(provider: provider, label: label, text)
    case .provider(let provider):
      return try await onlyAccount(of: provider.rawValue, text)
    case .storedText(let provider, nil):
      return try await onlyAccount(of: provider, text)
    }
  }

  /// The account stored as `provider`/`label` (the texts its cells hold), named `text`.
  private func storedAccount(provider: String, label: String, _ text: String)
    async throws(AccountsError) -> StoredAccount
  {
    let found = try await vaulted { vault throws(VaultError) in
      try await vault.storedAccount(providerID: provider, label: label)
    }
    if case .damaged(let damaged) = found, damaged.name == nil {
      throw .damagedAccount(damaged, requested: text)
    }
    if let found { return found }
    throw noSuchAccount(text, provider: provider, label: label, in: try await listing())
  }

  /// The one account stored with the provider text `provider`, else its default, named `text`.
  private func onlyAccount(of provider: String, _ text: String) async throws(AccountsError)
    -> StoredAccount
  {
    let listing = try await listing()
    let readable = listing.accounts.filter { $0.providerID == provider }
    let damaged = listing.damaged.filter { $0.providerID == provider }
    let matching = readable.map(StoredAccount.readable) + damaged.map(StoredAccount.damaged)
    if matching.count == 1, let only = matching.first { return only }
    if matching.count > 1 {
      if let chosen = readable.first(where: { listing.defaults.contains($0.id) }) {
        return .readable(chosen)
      }
      // The list's order, each key made once; every listed account has a name (`listing()`).
      let names = readable.compactMap { try? $0.accountName }.map { (key: $0.orderKey, name: $0) }
        .sorted { $0.key < $1.key }.map(\.name.description)
      throw .ambiguousAccount(
        provider, candidates: names + damaged.map { $0.name ?? "'\($0.id)'" })
    }
    throw noSuchAccount(text, provider: provider, label: nil, in: listing)
  }

  /// The failure for `text`, which names no account of `listing`: the names close to it, or,
  /// when there are none and `provider` is one the catalog knows, the sign-in that would make
  /// the first account of it (`noAccountYet`: a new user's `authtui token github` after
  /// `providers add` but before `login`).
  private nonisolated func noSuchAccount(
    _ text: String, provider: String, label: String?, in listing: AccountListing
  ) -> AccountsError {
    let known = (try? ProviderID(provider)).flatMap { catalog.knownIDs.contains($0) ? $0 : nil }
    return Self.noSuchAccount(
      text, among: Self.names(in: listing), knownProvider: known, label: label)
  }

  /// The failure for `text`, which names none of the accounts `names`: the names close to it,
  /// or, when there are none and `knownProvider` (the provider it names, when the catalog
  /// knows it) is given, the sign-in that would make the first account of it. What `token`
  /// says of an unknown account, for a command that read the names elsewhere (from an agent).
  public static func noSuchAccount(
    _ text: String, among names: [String], knownProvider: ProviderID?, label: String?
  ) -> AccountsError {
    let suggestions = closeNames(to: text, among: names)
    guard suggestions.isEmpty, let knownProvider else {
      return .noSuchAccount(text, suggestions: suggestions)
    }
    return .noAccountYet(text, provider: knownProvider, label: label)
  }

  /// The account `text` names, decrypted; a damaged one is thrown as `accountDamaged`
  /// (`storedAccount(named:)` returns it instead).
  public func account(named text: String) async throws(AccountsError) -> AccountRecord {
    try await account(try AccountReference(parsing: text))
  }

  /// The account `reference` points at, decrypted, as `account(named:)` finds it.
  public func account(_ reference: AccountReference) async throws(AccountsError)
    -> AccountRecord
  {
    switch try await storedAccount(reference) {
    case .readable(let account): return account
    case .damaged(let damaged): throw .vault(.accountDamaged(damaged.id, damaged.damage))
    }
  }

  /// The names of `listing`'s accounts close to `text` (`closeNames(to:among:)`), the damaged
  /// ones' among them as far as their cells open.
  static func closeNames(to text: String, in listing: AccountListing) -> [String] {
    closeNames(to: text, among: names(in: listing))
  }

  /// The names of `listing`'s accounts, the damaged ones' among them as far as their cells
  /// open.
  private static func names(in listing: AccountListing) -> [String] {
    // Every readable account of a listing has a name (`listing()`).
    let readable = listing.accounts.compactMap { try? $0.accountName.description }
    return readable + listing.damaged.compactMap(\.name)
  }

  /// Names close to `text`: by edit distance on the whole name, and every account of a provider
  /// or with a label that matches exactly.
  static func closeNames(to text: String, among names: [String]) -> [String] {
    var result = SpellingSuggestion.close(to: text, among: names.sorted(), maximumDistance: 3)
    // Each side of the first slash, or the whole text for both when it has none.
    let halves = AccountName.halves(of: text)
    for name in names.sorted() where !result.contains(name) {
      let nameHalves = AccountName.halves(of: name)
      if (nameHalves?.provider ?? name[...]) == (halves?.provider ?? text[...])
        || (halves.map { (nameHalves?.label ?? name[...]) == $0.label } ?? false)
      {
        result.append(name)
      }
    }
    return Array(result.prefix(5))
  }

  // MARK: Providers

  /// The provider id `text` is, as a person typed it or a vault row stores it: checked here,
  /// once, at the edge. Text that cannot be an id names no provider, and is refused as the
  /// lookup of an unknown one is, with the closest ids.
  public nonisolated func providerID(named text: String) throws(AccountsError) -> ProviderID {
    try Self.providerID(named: text, in: catalog)
  }

  /// The catalog entry for `id`; when there is none, the problems of its file, or the closest
  /// ids.
  public nonisolated func providerEntry(_ id: ProviderID) throws(AccountsError) -> ProviderEntry {
    try Self.providerEntry(id, in: catalog)
  }

  /// `providerID(named:)` in `catalog`, for a command that checks the provider it is given
  /// before it opens the vault (`login`).
  public static func providerID(named text: String, in catalog: ProviderCatalog)
    throws(AccountsError) -> ProviderID
  {
    do {
      return try ProviderID(text)
    } catch {
      throw noSuchProvider(text, in: catalog)
    }
  }

  /// The provider id `text` names when `catalog` knows it (a preset, or a provider file, even
  /// one that cannot be read now), else `noSuchProvider` with the known ids closest to it.
  public static func knownProviderID(named text: String, in catalog: ProviderCatalog)
    throws(AccountsError) -> ProviderID
  {
    let id = try providerID(named: text, in: catalog)
    guard catalog.knownIDs.contains(id) else { throw noSuchProvider(text, in: catalog) }
    return id
  }

  /// `providerEntry(_:)` in `catalog`.
  public static func providerEntry(_ id: ProviderID, in catalog: ProviderCatalog)
    throws(AccountsError) -> ProviderEntry
  {
    let unreadable = catalog.skippedProblems(for: id)
    guard unreadable.isEmpty else {
      throw .providerUnusable(id, problems: unreadable.map(\.description))
    }
    guard let entry = catalog.entry(id) else { throw noSuchProvider(id.rawValue, in: catalog) }
    return entry
  }

  /// `noSuchProvider` for `text`, with the known ids of `catalog` closest to it.
  private static func noSuchProvider(_ text: String, in catalog: ProviderCatalog) -> AccountsError {
    .noSuchProvider(
      text, suggestions: SpellingSuggestion.close(to: text, among: catalog.knownIDs.map(\.rawValue))
    )
  }

  /// The provider of `id`, ready to talk to: its configuration after OpenID discovery (once
  /// per run), its key cache, and a client.
  public func openIDProvider(_ id: ProviderID) throws(AccountsError) -> OIDCProvider {
    if let known = openIDProviders[id] { return known }
    let entry = try providerEntry(id)
    guard let configuration = entry.configuration else {
      throw .providerUnusable(id, problems: entry.problems.map(\.message))
    }
    let provider = OIDCProvider(
      configuration: configuration, transport: transport, clock: clock,
      requestTimeout: requestTimeout, criticalSection: criticalSection, dpopNonces: dpopNonces)
    openIDProviders[id] = provider
    return provider
  }

  /// A client for the provider of `id`, with discovered endpoints filled in; it signs no DPoP
  /// proofs (`client(for:signingFor:)` gives one that signs with an account's key).
  public func client(for id: ProviderID) async throws(AccountsError) -> ProviderClient {
    let provider = try openIDProvider(id)
    do {
      return try await provider.client()
    } catch {
      throw .auth(error)
    }
  }

  /// Runs a vault call, turning its error into `AccountsError.vault`.
  func vaulted<Result: Sendable>(
    _ body: (Vault) async throws(VaultError) -> Result
  ) async throws(AccountsError) -> Result {
    do {
      return try await body(vault)
    } catch {
      throw .vault(error)
    }
  }
}
