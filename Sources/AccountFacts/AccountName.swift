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
    guard let (providerText, label) = Self.halves(of: text),
      let provider = try? ProviderID(String(providerText)), !label.isEmpty
    else { return nil }
    self.init(provider: provider, label: String(label))
  }

  /// `text` cut at its first `/` byte: what comes before it and after it; nil without one.
  /// Never at a `Character`: a slash followed by a combining mark (`simkl/\u{349}x`, a label a
  /// provider may give) is one, and `firstIndex(of: "/")` would not find it.
  public static func halves(of text: String) -> (provider: Substring, label: Substring)? {
    guard let slash = text.utf8.firstIndex(of: UInt8(ascii: "/")) else { return nil }
    return (text[..<slash], text[text.utf8.index(after: slash)...])
  }

  /// `PROVIDER/LABEL`.
  public var description: String { provider.rawValue + "/" + label }
}
