import AuthCore

/// An account as people and the command line name it: `PROVIDER/LABEL` (`simkl/alice`).
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

  /// `PROVIDER/LABEL`.
  public var description: String { provider.rawValue + "/" + label }

  public static func < (left: AccountName, right: AccountName) -> Bool {
    (left.provider, left.label) < (right.provider, right.label)
  }
}
