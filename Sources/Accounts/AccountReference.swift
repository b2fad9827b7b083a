/// How people point at an account on the command line: its `AccountName` (`simkl/alice`), or a
/// bare `PROVIDER` when that provider has exactly one account. `#N` names a stored account by its
/// row id, for the one case names cannot reach: a damaged account whose name no longer decrypts.
public enum AccountReference: Sendable, Equatable, CustomStringConvertible {
  /// `provider/label`.
  case full(provider: String, label: String)
  /// A provider alone.
  case provider(String)
  /// `#N`: a row id, as `authtui list` reports damaged accounts.
  case rowID(Int64)

  /// Reads a name as typed. The label is everything after the first `/`, so a label may hold
  /// spaces, and one stored before `AccountLabel`'s rules may hold slashes; it may not be empty.
  public init(parsing text: String) throws(AccountsError) {
    if text.hasPrefix("#"), let id = Int64(text.dropFirst()), id > 0 {
      self = .rowID(id)
      return
    }
    guard let slash = text.firstIndex(of: "/") else {
      guard !text.isEmpty else { throw .malformedAccountName(text) }
      self = .provider(text)
      return
    }
    let provider = String(text[..<slash])
    let label = String(text[text.index(after: slash)...])
    guard !provider.isEmpty, !label.isEmpty else { throw .malformedAccountName(text) }
    self = .full(provider: provider, label: label)
  }

  public var description: String {
    switch self {
    case .full(let provider, let label): return "\(provider)/\(label)"
    case .provider(let provider): return provider
    case .rowID(let id): return "#\(id)"
    }
  }
}
