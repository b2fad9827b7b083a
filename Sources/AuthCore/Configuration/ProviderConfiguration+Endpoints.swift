import Foundation
import Loopback

extension ProviderConfiguration {
  /// The endpoint at `keyPath`, checked: present, and https unless it is on loopback
  /// (DESIGN.md "Flows": every non-loopback endpoint must be https). `name` is its wire name,
  /// used in the error.
  func endpoint(_ keyPath: KeyPath<ProviderConfiguration, URL?>, named name: String)
    throws(AuthError) -> URL
  {
    guard let url = self[keyPath: keyPath] else {
      // With discovery on, every endpoint the document had is filled in by now
      // (`OIDCProvider.configuration()`): a missing one is the server's, not the file's.
      if let issuer, usesDiscovery {
        throw .endpointNotDiscovered(name, provider: self.name, issuer: issuer)
      }
      throw .missingEndpoint(name, provider: self.name)
    }
    guard Self.isAllowedEndpoint(url) else { throw .insecureEndpoint(name, provider: self.name) }
    return url
  }

  /// True for https URLs, and http URLs on a loopback host (`isLoopbackHost`: the sandbox
  /// provider, a server on this machine under development).
  public static func isAllowedEndpoint(_ url: URL) -> Bool {
    switch url.scheme?.lowercased() {
    case "https":
      return url.host != nil
    case "http":
      return isLoopbackHost(url.host)
    default:
      return false
    }
  }

  /// True for the hosts that may be sent plain http, because nothing sent to them leaves this
  /// machine: `127.0.0.1`, `::1` (bare or in brackets) and `localhost` in any case. libcurl,
  /// URLSession's HTTP client on Linux, resolves `localhost` to 127.0.0.1 and ::1 itself,
  /// never through /etc/hosts or DNS (since curl 7.78; RFC 6761 §6.3), so a server that names
  /// itself `http://localhost:8080/…` (a local Keycloak) is reached on loopback. A name under
  /// it (`app.localhost`) or `localhost.` with the root's dot is not taken: what resolves them
  /// is not ours to rely on. The one test of every check that allows http: endpoints, issuers,
  /// registration management addresses, git URL prefixes.
  public static func isLoopbackHost(_ host: String?) -> Bool {
    guard let host else { return false }
    return ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host.lowercased())
  }

  /// `client_secret` for a token request, when the provider requires its non-confidential
  /// secret there (Google); empty for public clients.
  var clientSecretParameter: [FormEncoding.Pair] {
    clientSecret.map { [("client_secret", $0.value)] } ?? []
  }

  /// Throws unless the provider lists `flow`.
  func require(_ flow: SignInFlow) throws(AuthError) {
    guard flows.contains(flow) else { throw .flowNotOffered(flow, provider: name) }
  }

  /// `standard` followed by the per-request extras whose names `standard` does not use, sorted
  /// by name so URLs and bodies are stable.
  func withExtraParameters(_ standard: [FormEncoding.Pair], extras: [String: String])
    -> [FormEncoding.Pair]
  {
    let taken = Set(standard.map(\.name))
    return standard
      + extras.filter { !taken.contains($0.key) }.sorted { $0.key < $1.key }.map {
        (name: $0.key, value: $0.value)
      }
  }
}

extension URL {
  /// This URL with `pairs` appended to its query, percent-encoded by `FormEncoding` (never by
  /// URLComponents, which leaves `+` alone).
  func appendingQuery(_ pairs: [FormEncoding.Pair]) -> URL {
    guard !pairs.isEmpty else { return self }
    let text = absoluteString
    let separator =
      text.contains("?") ? (text.hasSuffix("?") || text.hasSuffix("&") ? "" : "&") : "?"
    return URL(string: text + separator + FormEncoding.encode(pairs)) ?? self
  }
}
