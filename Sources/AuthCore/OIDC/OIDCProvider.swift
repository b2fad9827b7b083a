import Crypto
import Foundation
import JSON

/// One OpenID provider for the length of a run: its discovery document and its signing keys,
/// each fetched once and kept, and id_token validation against them.
///
/// Hold one per provider for the whole process (the TUI) or command (`authtui login`); every
/// sign-in to that provider then shares one discovery fetch and one JWKS fetch.
///
/// Key rotation: when an id_token names a `kid` (or, without `kid`, a key type) that the kept
/// JWKS lacks, the JWKS is fetched again, once, and the lookup retried; if the key is still
/// missing the token is refused with `IDTokenError.unknownKey`. Such refetches are rate limited:
/// at most one per `keyRefetchInterval` (default 5 minutes), so within a command (or a burst of
/// sign-ins) a second unknown `kid` is refused without touching the network, while a TUI that
/// stays open for days still follows the provider's later rotations. A refetch that other
/// callers are already waiting for is shared, never repeated. Failed fetches are not kept: the
/// next call tries again.
///
/// Discovery runs only when the configuration has an `issuer` and `usesDiscovery` is true;
/// otherwise `configuration()` is the configuration as given, so every provider can go through
/// one of these. A sign-in then reads:
/// ```swift
/// let provider = OIDCProvider(configuration: configuration, transport: transport)
/// let client = try await provider.client()            // discovered endpoints filled in
/// let attempt = try await AuthorizationCodeSignIn.start(client: client)
/// let tokens = try await attempt.tokens()
/// let idToken = try await provider.validateIDToken(in: tokens, nonce: attempt.request.nonce)
/// let identity = try await client.identity(for: tokens, idToken: idToken)  // the label
/// ```
public actor OIDCProvider {
  /// The configuration as given, before discovery.
  public nonisolated let baseConfiguration: ProviderConfiguration
  /// The least time between two JWKS refetches caused by unknown keys.
  public nonisolated let keyRefetchInterval: TimeInterval
  /// The clock skew allowed on `exp`, `iat` and `nbf`.
  public nonisolated let allowedClockSkew: TimeInterval

  /// The latest DPoP nonce of each of the provider's servers (RFC 9449 §8), shared by every
  /// client `client()` makes (and by other providers' given the same memory).
  public nonisolated let dpopNonces: DPoPNonces

  private let transport: any Transport
  private let clock: any WallClock
  private let requestTimeout: TimeInterval
  private let criticalSection: any CriticalSection

  private typealias Fetch<Value: Sendable> = Task<Result<Value, AuthError>, Never>

  private var metadata: OIDCProviderMetadata?
  private var metadataFetch: Fetch<OIDCProviderMetadata>?
  private var keys: JSONWebKeySet?
  /// Bumped by every completed JWKS fetch, so a caller can tell whether the set changed while
  /// it waited.
  private var keysGeneration = 0
  private var keysFetch: Fetch<JSONWebKeySet>?
  private var lastKeyRefetch: Date?

  /// A provider described by `configuration`, reached through `transport`, with each request
  /// bounded by `requestTimeout` seconds and the time from `clock`.
  public init(
    configuration: ProviderConfiguration, transport: any Transport,
    clock: any WallClock = SystemClock(), requestTimeout: TimeInterval = 30,
    keyRefetchInterval: TimeInterval = 300, allowedClockSkew: TimeInterval = 300,
    criticalSection: any CriticalSection = UnguardedSection(),
    dpopNonces: DPoPNonces = DPoPNonces()
  ) {
    self.criticalSection = criticalSection
    self.dpopNonces = dpopNonces
    baseConfiguration = configuration
    self.transport = transport
    self.clock = clock
    self.requestTimeout = requestTimeout
    self.keyRefetchInterval = keyRefetchInterval
    self.allowedClockSkew = allowedClockSkew
  }

  // MARK: Discovery

  /// The provider's metadata (its OpenID discovery document merged with its RFC 8414
  /// metadata, `MetadataDiscovery`), fetched on first use and kept for the run; nil when the
  /// configuration does not use discovery.
  public func discoveredMetadata() async throws(AuthError) -> OIDCProviderMetadata? {
    guard let issuer = baseConfiguration.issuer, baseConfiguration.usesDiscovery else {
      return nil
    }
    if let metadata { return metadata }
    let fetch: Fetch<OIDCProviderMetadata>
    if let metadataFetch {
      fetch = metadataFetch
    } else {
      let client = baseClient
      let overridden = baseConfiguration.explicitEndpointNames
      let template = baseConfiguration.issuerTemplate
      fetch = Task {
        await Self.discover(
          issuer: issuer, template: template, overridden: overridden, client: client)
      }
      metadataFetch = fetch
    }
    let result = await fetch.value
    if metadataFetch == fetch { metadataFetch = nil }
    let metadata = try result.get()
    self.metadata = metadata
    return metadata
  }

  /// The configuration with discovered endpoints filled in where it sets none.
  public func configuration() async throws(AuthError) -> ProviderConfiguration {
    guard let metadata = try await discoveredMetadata() else { return baseConfiguration }
    return baseConfiguration.applying(metadata)
  }

  /// A client for `configuration()`, sharing this provider's transport, clock, timeout,
  /// critical section and DPoP nonces; without a DPoP key (`ProviderClient.signingProofs(with:)`
  /// gives it the account's).
  public func client() async throws(AuthError) -> ProviderClient {
    ProviderClient(
      configuration: try await configuration(), transport: transport, clock: clock,
      requestTimeout: requestTimeout, criticalSection: criticalSection, dpopNonces: dpopNonces)
  }

  // MARK: id_tokens

  /// Checks the id_token of a sign-in's token answer; `nonce` is the one the authorization
  /// request sent (`AuthorizationRequest.nonce`).
  ///
  /// When a nonce was sent the answer must carry an id_token (OIDC Core §3.1.3.3). Without a
  /// nonce (device sign-in, refresh) an id_token is checked when present and the provider is an
  /// OpenID provider (an `issuer`, or `openid` in its scopes); nil when there is none to check.
  public func validateIDToken(in tokens: TokenResponse, nonce: String?) async throws(AuthError)
    -> IDToken?
  {
    guard let idToken = tokens.idToken, !idToken.isEmpty else {
      if nonce != nil { throw .idTokenRejected(.missing) }
      return nil
    }
    let asked = nonce != nil || baseConfiguration.scopes.contains("openid")
    guard asked || baseConfiguration.issuer != nil else { return nil }
    return try await validateIDToken(idToken, nonce: nonce, accessToken: tokens.accessToken)
  }

  /// Checks `idToken` as `IDTokenValidator` does, with the keys from the provider's `jwks_uri`
  /// (configured or discovered) and one refetch on an unknown key.
  public func validateIDToken(_ idToken: String, nonce: String?, accessToken: String?)
    async throws(AuthError) -> IDToken
  {
    let configuration = try await configuration()
    let validator: IDTokenValidator
    let token: CompactJWS
    // A templated issuer's discovery document may name one concrete issuer (a tenant's): the
    // token must then come from it too.
    let published = try await discoveredMetadata()?.issuer
    let pinned = published.flatMap { issuer in
      configuration.issuerTemplate.map { $0.isConcrete(issuer) } == true ? issuer : nil
    }
    do {
      validator = try IDTokenValidator(
        configuration: configuration, allowedClockSkew: allowedClockSkew, pinnedIssuer: pinned)
      token = try CompactJWS(parsing: idToken)
    } catch {
      throw .idTokenRejected(error)
    }
    let candidates = try await keys(for: token, configuration: configuration)
    let now = await clock.now()
    do {
      return try validator.validate(
        token, candidates: candidates, now: now, nonce: nonce, accessToken: accessToken)
    } catch {
      throw .idTokenRejected(error)
    }
  }

  /// The keys that may have signed `token`, refetching the JWKS once if none fits.
  private func keys(for token: CompactJWS, configuration: ProviderConfiguration)
    async throws(AuthError) -> [PublicKey]
  {
    let (current, generation) = try await currentKeys(configuration)
    switch current.select(algorithm: token.algorithm, keyID: token.keyID) {
    case .keys(let candidates): return candidates
    case .refused(let error): throw .idTokenRejected(error)
    case .notFound: break
    }
    guard let refreshed = try await refetchedKeys(after: generation, configuration) else {
      throw .idTokenRejected(.unknownKey(kid: token.keyID))
    }
    switch refreshed.select(algorithm: token.algorithm, keyID: token.keyID) {
    case .keys(let candidates): return candidates
    case .refused(let error): throw .idTokenRejected(error)
    case .notFound: throw .idTokenRejected(.unknownKey(kid: token.keyID))
    }
  }

  /// The kept JWKS, fetched first if there is none yet, and its generation.
  private func currentKeys(_ configuration: ProviderConfiguration) async throws(AuthError)
    -> (JSONWebKeySet, Int)
  {
    if let keys { return (keys, keysGeneration) }
    let keys = try await fetchKeys(configuration)
    return (keys, keysGeneration)
  }

  /// A newer JWKS than generation `seen`: one another caller fetched meanwhile, the fetch in
  /// flight, or a new fetch when the rate limit allows; nil when it does not.
  private func refetchedKeys(after seen: Int, _ configuration: ProviderConfiguration)
    async throws(AuthError) -> JSONWebKeySet?
  {
    let now = await clock.now()
    if keysGeneration > seen, let keys { return keys }
    if keysFetch != nil { return try await fetchKeys(configuration) }
    if let lastKeyRefetch, now.timeIntervalSince(lastKeyRefetch) < keyRefetchInterval {
      return nil
    }
    lastKeyRefetch = now
    return try await fetchKeys(configuration)
  }

  /// Joins the JWKS fetch in flight, or starts one; keeps the result when it succeeds.
  private func fetchKeys(_ configuration: ProviderConfiguration) async throws(AuthError)
    -> JSONWebKeySet
  {
    let fetch: Fetch<JSONWebKeySet>
    if let keysFetch {
      fetch = keysFetch
    } else {
      let url = try configuration.endpoint(\.jwksURI, named: "jwks_uri")
      let client = baseClient
      fetch = Task { await Self.downloadKeys(from: url, client: client) }
      keysFetch = fetch
    }
    let result = await fetch.value
    if keysFetch == fetch {
      keysFetch = nil
      if case .success(let fetched) = result {
        keys = fetched
        keysGeneration += 1
      }
    }
    return try result.get()
  }

  // MARK: Fetching

  private var baseClient: ProviderClient {
    ProviderClient(
      configuration: baseConfiguration, transport: transport, clock: clock,
      requestTimeout: requestTimeout)
  }

  private static func discover(
    issuer: String, template: IssuerTemplate?, overridden: Set<String>, client: ProviderClient
  ) async -> Result<OIDCProviderMetadata, AuthError> {
    do throws(AuthError) {
      return .success(
        try await MetadataDiscovery.discover(
          issuer: issuer, template: template, overridden: overridden, client: client))
    } catch {
      return .failure(error)
    }
  }

  private static func downloadKeys(from url: URL, client: ProviderClient) async -> Result<
    JSONWebKeySet, AuthError
  > {
    do throws(AuthError) {
      let json = try await client.fetchJSON(url)
      return .success(try JSONWebKeySet(json: json))
    } catch {
      return .failure(error)
    }
  }
}
