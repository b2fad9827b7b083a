import Vault

/// How people point at an account on the command line: its `AccountName` (`simkl/alice`), or a
/// bare `PROVIDER` when that provider has exactly one account. `#N` names a stored account by its
/// row id, for the one case names cannot reach: a damaged account whose name no longer decrypts.
///
/// Read once, where the text comes in, and handed down: the text as typed stays with it, for
/// the messages that quote it.
public struct AccountReference: Sendable, Equatable, CustomStringConvertible {
  /// What the text points at.
  public enum Target: Sendable, Equatable {
    /// `PROVIDER/LABEL`.
    case name(AccountName)
    /// A provider alone.
    case provider(ProviderID)
    /// `PROVIDER/LABEL` or `PROVIDER` whose provider is no provider id (`ProviderID`): no
    /// account authtui stored has it, but a row written by something else may, and is reached
    /// by the text it stores, to be listed as damaged and removed.
    case storedText(provider: String, label: String?)
    /// `#N`: a row id, as `authtui list` reports damaged accounts.
    case rowID(AccountID)
  }

  /// The text as typed.
  public let text: String
  /// What it points at.
  public let target: Target

  /// Reads a name as typed. The label is everything after the first `/`, so a label may hold
  /// spaces, and one stored before `AccountLabel`'s rules may hold slashes; it may not be empty.
  public init(parsing text: String) throws(AccountsError) {
    self.text = text
    if text.hasPrefix("#"), let id = Int64(text.dropFirst()), id > 0 {
      target = .rowID(AccountID(id))
      return
    }
    guard let (providerText, labelText) = AccountName.halves(of: text) else {
      guard !text.isEmpty else { throw .malformedAccountName(text) }
      target =
        (try? ProviderID(text)).map(Target.provider) ?? .storedText(provider: text, label: nil)
      return
    }
    let provider = String(providerText)
    let label = String(labelText)
    guard !provider.isEmpty, !label.isEmpty else { throw .malformedAccountName(text) }
    target =
      (try? ProviderID(provider)).map { .name(AccountName(provider: $0, label: label)) }
      ?? .storedText(provider: provider, label: label)
  }

  /// The account `name`, as a caller that holds one points at it (no text to read).
  public init(_ name: AccountName) {
    text = name.description
    target = .name(name)
  }

  /// The provider the text names, when it is a provider id; nil for `#N` (the row says which).
  public var providerID: ProviderID? {
    switch target {
    case .name(let name): return name.provider
    case .provider(let id): return id
    case .storedText, .rowID: return nil
    }
  }

  /// The text as typed.
  public var description: String { text }
}
