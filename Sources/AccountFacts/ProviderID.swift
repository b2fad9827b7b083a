import Spelling

/// The short name of a provider as users type it in `PROVIDER/LABEL` (`"id"` in a provider file).
public struct ProviderID: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The identifier text: lowercase letters, digits and `-`, starting with a letter or digit.
  public let rawValue: String

  /// Accepts `[a-z0-9][a-z0-9-]*`, at most 64 characters; otherwise throws an error naming the rule.
  public init(_ rawValue: String) throws(ProviderIDError) {
    guard Self.isValid(rawValue) else { throw ProviderIDError.invalid(rawValue) }
    self.rawValue = rawValue
  }

  /// The id of a provider that has none yet: an issuer discovered before its file is written.
  package static let unnamed = ProviderID(valid: "unnamed")

  /// An id known to be valid.
  private init(valid rawValue: String) {
    self.rawValue = rawValue
  }

  /// True when `text` can name a provider.
  static func isValid(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard let first = bytes.first, bytes.count <= 64, first != UInt8(ascii: "-") else {
      return false
    }
    return bytes.allSatisfy { byte in
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
    }
  }

  public var description: String { rawValue }

  public static func < (lhs: ProviderID, rhs: ProviderID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Why a provider identifier was refused.
public enum ProviderIDError: Error, Equatable, CustomStringConvertible {
  /// The text breaks the `[a-z0-9-]` rule.
  case invalid(String)

  public var description: String {
    switch self {
    case .invalid(let text):
      return
        "\(MessageQuoting.quoted(text)) is not a valid provider id: use 1 to 64 lowercase letters, digits and '-', "
        + "not starting with '-' (for example \"work-sso\")"
    }
  }
}
