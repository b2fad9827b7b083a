import Foundation

/// Authorization requests pushed to a PAR endpoint (RFC 9126), each under its `request_uri`
/// until the browser brings it to the authorization endpoint: once only, before it expires, and
/// only for the client that pushed it (§4).
struct PushedRequests<Request: Sendable>: Sendable {
  private var entries: [String: (request: Request, clientID: String, expiresAt: Date)] = [:]

  /// The prefix RFC 9126 §2.2 names for references the server makes up.
  static var prefix: String { "urn:ietf:params:oauth:request_uri:" }

  /// Keeps `request`, pushed by `clientID`, for `lifetime` seconds; returns its `request_uri`.
  mutating func add(_ request: Request, clientID: String, lifetime: Int, now: Date) -> String {
    entries = entries.filter { $0.value.expiresAt > now }
    let uri = Self.prefix + RandomToken.opaque()
    entries[uri] = (request, clientID, now.addingTimeInterval(TimeInterval(lifetime)))
    return uri
  }

  /// What became of a `request_uri` brought by `clientID`.
  enum Redemption {
    /// The request, now used up.
    case request(Request)
    /// Never pushed, already used, or expired.
    case unknown
    /// Pushed by another client; it stays for its own.
    case otherClient
  }

  /// Takes the request under `uri` for `clientID`: a reference works once.
  mutating func take(_ uri: String, clientID: String, now: Date) -> Redemption {
    guard let entry = entries[uri], entry.expiresAt > now else {
      entries[uri] = nil
      return .unknown
    }
    guard entry.clientID == clientID else { return .otherClient }
    entries[uri] = nil
    return .request(entry.request)
  }
}
