import AuthCore

/// A provider the "Other provider…" form added (`.addProvider`'s result): its file, the client
/// id authtui registered as (nil when the person gave one, or the server registers none), and
/// the catalog read again with it.
public struct ProviderAdded: Sendable, Equatable {
  /// The provider's id.
  public var id: ProviderID
  /// `providers/ID.json` as the user knows it (`~/.config/authtui/providers/work.json`).
  public var file: String
  /// The client id the server issued when authtui registered itself (RFC 7591).
  public var registeredClientID: String?
  /// Every provider of the catalog, the new one among them.
  public var providers: [ProviderSummary]

  /// The result of an addition.
  public init(
    id: ProviderID, file: String, registeredClientID: String? = nil, providers: [ProviderSummary]
  ) {
    self.id = id
    self.file = file
    self.registeredClientID = registeredClientID
    self.providers = providers
  }
}
