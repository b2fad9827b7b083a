/// An account as people and the command line name it: `PROVIDER/LABEL` (`simkl/alice`);
/// ordered as every list shows them (`AccountName+Order.swift`).
public struct AccountName: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The provider's id in the catalog (`simkl`).
  public var provider: ProviderID
  /// The user's name for the account, unique per provider (`alice`).
  public var label: String

  /// The account `provider`/`label`.
  public init(provider: ProviderID, label: String) {
    self.provider = provider
    self.label = label
  }

  /// The account `text` names as `PROVIDER/LABEL`: the label is everything after the first
  /// `/` (one stored before `AccountLabel`'s rules may hold slashes) and may not be empty, the
  /// provider is an id. Nil for any other text.
  public init?(_ text: String) {
    guard let slash = text.firstIndex(of: "/"),
      let provider = try? ProviderID(String(text[..<slash]))
    else { return nil }
    let label = String(text[text.index(after: slash)...])
    guard !label.isEmpty else { return nil }
    self.init(provider: provider, label: label)
  }

  /// `PROVIDER/LABEL`.
  public var description: String { provider.rawValue + "/" + label }
}
