import Foundation

/// Authorization requests waiting for the person on the consent page, each under a random id
/// that the page's form sends back. The validated request stays here, so the form carries
/// nothing a user could alter but the name and the decision.
struct PendingAuthorizations<Request: Sendable>: Sendable {
  /// How long a consent page may stay open.
  static var lifetime: TimeInterval { 1800 }

  private var entries: [String: (request: Request, expiresAt: Date)] = [:]

  /// Keeps `request` and returns the id to put in the form.
  mutating func add(_ request: Request, now: Date) -> String {
    entries = entries.filter { $0.value.expiresAt > now }
    let id = RandomToken.opaque(byteCount: 18)
    entries[id] = (request, now.addingTimeInterval(Self.lifetime))
    return id
  }

  /// The request under `id`, still waiting.
  func peek(_ id: String?, now: Date) -> Request? {
    guard let id, let entry = entries[id], entry.expiresAt > now else { return nil }
    return entry.request
  }

  /// Removes and returns the request under `id`: a decision is taken once.
  mutating func take(_ id: String?, now: Date) -> Request? {
    guard let id, let entry = entries.removeValue(forKey: id), entry.expiresAt > now else {
      return nil
    }
    return entry.request
  }
}
