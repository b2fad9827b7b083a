import Crypto
import Foundation
import JSON
import Loopback

/// Talks to one provider's endpoints: builds each request from the configuration (extra
/// parameters, body encoding, `User-Agent`), sends it through the injected `Transport`, and reads
/// the answer into a value or an `AuthError`.
///
/// Immutable and stateless: sign-in attempts, refreshes and revocations all go through one, and
/// nothing is stored. The clock stamps `TokenResponse.receivedAt` and drives every deadline.
public struct ProviderClient: Sendable {
  /// The provider.
  public let configuration: ProviderConfiguration
  /// The network.
  public let transport: any Transport
  /// The time.
  public let clock: any WallClock
  /// The deadline for each request, in seconds.
  public let requestTimeout: TimeInterval
  /// Runs the code exchange, so that the process does not end while the provider's answer to
  /// a code it spends is on its way. (Refreshes are guarded whole by their caller.)
  public let criticalSection: any CriticalSection
  /// The key that signs DPoP proofs (RFC 9449) for the account this client acts for, when its
  /// tokens are (or are to be) bound to one: every request to the token endpoint (code
  /// exchange, device poll, refresh) and to the revocation endpoint then carries a fresh proof,
  /// and a DPoP-bound access token is sent with one. Nil: no proofs. A sign-in keeps it only
  /// when the provider uses DPoP (`ProviderConfiguration.dpopAlgorithm()`).
  public let dpopKey: (any DPoPSigner)?
  /// The latest DPoP nonce of each server this client's provider talked to (RFC 9449 §8):
  /// every answer's `DPoP-Nonce` is kept here for the next proof to that server.
  public let dpopNonces: DPoPNonces
  /// Where each proof's `jti` comes from.
  let random: AnyRandomSource

  /// A client for `configuration` over `transport`, timed by `clock`; with `dpopKey`, its
  /// token requests carry DPoP proofs.
  public init(
    configuration: ProviderConfiguration, transport: any Transport,
    clock: any WallClock = SystemClock(), requestTimeout: TimeInterval = 30,
    criticalSection: any CriticalSection = UnguardedSection(),
    dpopKey: (any DPoPSigner)? = nil, dpopNonces: DPoPNonces = DPoPNonces(),
    random: some RandomSource = SystemRandomSource()
  ) {
    self.configuration = configuration
    self.transport = transport
    self.clock = clock
    self.requestTimeout = requestTimeout
    self.criticalSection = criticalSection
    self.dpopKey = dpopKey
    self.dpopNonces = dpopNonces
    self.random = AnyRandomSource(random)
  }

  /// This client with `key` signing its DPoP proofs (nil: none), sharing everything else: for
  /// an account whose tokens are bound to `key`, or a sign-in that is to bind them to it.
  public func signingProofs(with key: (any DPoPSigner)?) -> ProviderClient {
    ProviderClient(
      configuration: configuration, transport: transport, clock: clock,
      requestTimeout: requestTimeout, criticalSection: criticalSection, dpopKey: key,
      dpopNonces: dpopNonces, random: random)
  }

  // MARK: Building requests

  /// A `GET` of `url` with `parameters` and the provider's per-request extras in the query.
  func getRequest(
    _ url: URL, parameters: [FormEncoding.Pair] = [], bearerToken: String? = nil,
    timeout: TimeInterval? = nil
  ) -> TransportRequest {
    let query = configuration.withExtraParameters(
      parameters, extras: configuration.extraRequestParameters)
    var headers = commonHeaders()
    if let bearerToken {
      headers.append(Header("Authorization", "Bearer \(bearerToken)"))
    }
    return TransportRequest(
      method: .get, url: url.appendingQuery(query), headers: headers,
      timeout: timeout ?? requestTimeout)
  }

  /// A `POST` of `parameters` to `url` in `encoding`, with the per-request extras in the body or
  /// the query as the configuration says.
  func postRequest(
    _ url: URL, parameters: [FormEncoding.Pair], encoding: TokenRequestEncoding
  ) -> TransportRequest {
    var bodyPairs = parameters
    var target = url
    switch configuration.extraRequestParametersLocation {
    case .body:
      bodyPairs = configuration.withExtraParameters(
        parameters, extras: configuration.extraRequestParameters)
    case .query:
      target = url.appendingQuery(
        configuration.withExtraParameters([], extras: configuration.extraRequestParameters))
    }
    var headers = commonHeaders()
    let body: Data
    switch encoding {
    case .form:
      headers.append(Header("Content-Type", "application/x-www-form-urlencoded"))
      body = Data(FormEncoding.encode(bodyPairs).utf8)
    case .json:
      headers.append(Header("Content-Type", "application/json"))
      body = Self.jsonObject(bodyPairs)
    }
    return TransportRequest(
      method: .post, url: target, headers: headers, body: body, timeout: requestTimeout)
  }

  private func commonHeaders() -> [Header] {
    [
      Header("Accept", "application/json"),
      Header("User-Agent", configuration.userAgent ?? AuthTUIVersion.userAgent),
    ]
  }

  /// A flat JSON object of string members (the first of a repeated name kept), keys sorted so
  /// bodies are stable.
  static func jsonObject(_ pairs: [FormEncoding.Pair]) -> Data {
    var names: Set<String> = []
    let members = pairs.filter { names.insert($0.name).inserted }.map {
      ($0.name, OrderedJSON.string($0.value))
    }
    return Data(OrderedJSON.object(members).sortedByName.text.utf8)
  }

  // MARK: Sending and reading

  /// Sends `request`, turning transport failures into `AuthError` (a cancelled request is a
  /// cancelled sign-in).
  func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
    let response: TransportResponse
    do {
      response = try await transport.send(request)
    } catch .cancelled {
      throw .cancelled
    } catch {
      throw .transport(error)
    }
    // RFC 9449 §8.2: a server may give a fresh nonce in any answer; the next proof to it
    // carries the latest.
    if let nonce = DPoPNonce.parse(response.headers["dpop-nonce"]) {
      await dpopNonces.remember(nonce, for: request.url)
    }
    return response
  }

  /// Sends `request` inside the critical section: its answer carries tokens issued once only
  /// (a code exchanged). Throws `.cancelled` when the process is already ending and nothing
  /// was sent.
  func sendUninterruptibly(_ request: TransportRequest) async throws(AuthError)
    -> TransportResponse
  {
    let client = self
    let outcome = await criticalSection.run { () async -> Result<TransportResponse, AuthError> in
      do throws(AuthError) {
        return .success(try await client.send(request))
      } catch {
        return .failure(error)
      }
    }
    guard let outcome else { throw .cancelled }
    return try outcome.get()
  }

  /// What a provider's JSON endpoint said: a JSON object, or an OAuth error.
  enum Answer {
    case json([String: JSONValue])
    case error(OAuthError)
  }

  /// Reads an answer from an OAuth endpoint. Redirects, empty and non-JSON bodies, and error
  /// statuses without an OAuth error become their own `AuthError`; an `error` member becomes
  /// `.error` whatever the status (RFC 6749 §5.2 says 400, Simkl sends 401).
  static func read(_ response: TransportResponse) throws(AuthError) -> Answer {
    let status = response.status
    if (300..<400).contains(status) { throw .redirectRefused(status: status) }
    let isBlank = response.body.allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
    guard !isBlank else {
      if status >= 500 { throw .serverError(status: status) }
      if (200..<300).contains(status) { throw .emptyResponse(status: status) }
      throw .unexpectedStatus(status)
    }
    guard let json = JSONValue.object(from: response.body) else {
      throw status >= 500 ? .serverError(status: status) : .nonJSONResponse(status: status)
    }
    if let code = json["error"]?.stringValue, !code.isEmpty {
      return .error(
        OAuthError(
          code: OAuthErrorCode(rawValue: code),
          errorDescription: json["error_description"]?.stringValue ?? json["message"]?.stringValue,
          errorURI: json["error_uri"]?.stringValue))
    }
    if status >= 500 { throw .serverError(status: status) }
    guard (200..<300).contains(status) else { throw .unexpectedStatus(status) }
    return .json(json)
  }

  // MARK: Resources

  /// `GET`s a JSON object from `url` with the provider's per-request parameters, optionally with
  /// `Authorization: Bearer` (RFC 6750 §2.1); for the identity step after a sign-in. `timeout`
  /// replaces the client's `requestTimeout` (what is left of a deadline several requests share).
  public func fetchJSON(
    _ url: URL, bearerToken: String? = nil, timeout: TimeInterval? = nil
  ) async throws(AuthError) -> [String: JSONValue] {
    guard ProviderConfiguration.isAllowedEndpoint(url) else {
      throw .insecureEndpoint(url.host ?? "endpoint", provider: configuration.name)
    }
    let response = try await send(getRequest(url, bearerToken: bearerToken, timeout: timeout))
    // 401 (token unusable) and 403 (a scope is missing) must stay distinguishable (RFC 6750 §3.1).
    if (400..<500).contains(response.status) { throw .unexpectedStatus(response.status) }
    switch try Self.read(response) {
    case .json(let json): return json
    case .error(let error): throw .tokenRequestRejected(error)
    }
  }
}
