import AuthCore

/// Tests write account names as literals (`"sandbox/alice"`), as they write provider ids
/// (`ProviderID+Literal.swift`): only here, since the sources read every name where it comes
/// in.
extension AccountName: ExpressibleByStringLiteral {
  public init(stringLiteral text: String) {
    guard let name = AccountName(text) else {
      preconditionFailure("a test's account name \(text) is not PROVIDER/LABEL")
    }
    self = name
  }
}
