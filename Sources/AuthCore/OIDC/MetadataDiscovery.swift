import Foundation
import JSON

/// Finding what an authorization server publishes from its issuer alone: its OpenID discovery
/// document and its RFC 8414 metadata, fetched at once, merged by `OIDCProviderMetadata`.
///
/// The OpenID document (`{issuer}/.well-known/openid-configuration`) is fetched together with
/// RFC 8414's path-insertion form (`https://host/.well-known/oauth-authorization-server/path`);
/// when that gives no document and the issuer has a path, the suffix form
/// (`{issuer}/.well-known/oauth-authorization-server`) is tried after it. The whole discovery
/// keeps to one deadline, the client's `requestTimeout`, which every request shares (each
/// used to get its own, so a server that never answered held `providers add` for twice the
/// time its message said), and a timeout says that deadline. A server need publish only one
/// of them: an answer of 4xx is "no such document". A failure of the OpenID fetch (the
/// network, a 5xx) fails discovery at once, as it always has; RFC 8414 metadata that cannot
/// be had or used is left out when the OpenID document is there, since most OpenID providers
/// publish none, and its failure is the one said when there is neither.
enum MetadataDiscovery {
  /// What one fetch gave.
  enum Fetched: Sendable {
    case document([String: JSONValue])
    case notFound(status: Int)
    case failed(AuthError)
  }

  /// The merged metadata of `issuer`, checked as `OIDCProviderMetadata` does.
  static func discover(
    issuer: String, template: IssuerTemplate?, overridden: Set<String>, client: ProviderClient
  ) async throws(AuthError) -> OIDCProviderMetadata {
    let openIDURL: URL
    let serverURLs: [URL]
    do {
      openIDURL = try OIDCProviderMetadata.discoveryURL(issuer: issuer)
      serverURLs = try OIDCProviderMetadata.authorizationServerMetadataURLs(issuer: issuer)
    } catch {
      throw .discoveryFailed(error)
    }
    let deadline = Deadline(
      at: await client.clock.now().addingTimeInterval(client.requestTimeout),
      seconds: client.requestTimeout)
    async let openIDFetch = fetch(openIDURL, client: client, deadline: deadline)
    async let insertedFetch = fetch(serverURLs[0], client: client, deadline: deadline)
    let openID = await openIDFetch
    // The RFC 8414 fetch still in flight is cancelled as the error leaves this scope.
    if case .failed(let error) = openID { throw error }
    var server = await insertedFetch
    if case .document = server {
    } else if serverURLs.count > 1 {
      server = await fetch(serverURLs[1], client: client, deadline: deadline)
    }

    var documents: [MetadataDocument] = []
    if case .document(let json) = openID {
      documents.append(MetadataDocument(kind: .openIDConfiguration, json: json))
    }
    if case .document(let json) = server {
      documents.append(MetadataDocument(kind: .authorizationServer, json: json))
    }
    // No OpenID document: why the RFC 8414 metadata could not be had is the answer.
    if documents.isEmpty, case .failed(let error) = server { throw error }
    guard !documents.isEmpty else {
      let status: Int
      if case .notFound(let answered) = openID { status = answered } else { status = 404 }
      throw .discoveryFailed(
        .documentNotFound(
          url: openIDURL.absoluteString, status: status,
          alsoTried: serverURLs.map(\.absoluteString)))
    }
    do {
      return try OIDCProviderMetadata(
        documents: documents, expectedIssuer: issuer, overridden: overridden,
        issuerTemplate: template)
    } catch {
      throw .discoveryFailed(error)
    }
  }

  /// The moment the whole discovery must be done by, and its length as messages say it.
  struct Deadline: Sendable {
    let at: Date
    let seconds: TimeInterval
  }

  /// One document: its members, a 4xx, or why it could not be had, in what is left of
  /// `deadline` (a timeout says the whole deadline, not the part left for this request).
  static func fetch(_ url: URL, client: ProviderClient, deadline: Deadline) async -> Fetched {
    let timedOut = Fetched.failed(.transport(.timedOut(seconds: deadline.seconds)))
    let left = deadline.at.timeIntervalSince(await client.clock.now())
    guard left > 0 else { return timedOut }
    do throws(AuthError) {
      return .document(try await client.fetchJSON(url, timeout: left))
    } catch .unexpectedStatus(let status) where (400..<500).contains(status) {
      return .notFound(status: status)
    } catch .transport(.timedOut) {
      return timedOut
    } catch {
      return .failed(error)
    }
  }
}

extension OIDCProvider {
  /// What the server at `issuer` publishes, for a provider that has no configuration yet
  /// (`authtui providers add`, the UI's "Other provider…" form): the same fetches and checks
  /// as a sign-in's discovery, all of them within `requestTimeout` seconds, nothing kept.
  /// `template` is the provider's per-token issuer (`id_token_issuer_fields`), whose shape a
  /// published issuer may have.
  public static func discover(
    issuer: String, template: IssuerTemplate? = nil, transport: any Transport,
    clock: any WallClock = SystemClock(), requestTimeout: TimeInterval = 30
  ) async throws(AuthError) -> OIDCProviderMetadata {
    let configuration = ProviderConfiguration(id: .unnamed, issuer: issuer, clientID: "")
    let client = ProviderClient(
      configuration: configuration, transport: transport, clock: clock,
      requestTimeout: requestTimeout)
    return try await MetadataDiscovery.discover(
      issuer: issuer, template: template, overridden: [], client: client)
  }
}
