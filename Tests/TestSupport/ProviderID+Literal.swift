import AuthCore

/// Tests write provider ids as literals (`"sandbox"`). Only here: in the sources every id is
/// checked where it is read (`try ProviderID(text)`), and a literal would skip that check.
extension ProviderID: ExpressibleByStringLiteral {
  public init(stringLiteral text: String) {
    do {
      try self.init(text)
    } catch {
      preconditionFailure("a test's provider id \(text) is not one: \(error)")
    }
  }
}
