import Foundation

/// A server's DPoP nonce (RFC 9449 §8, §9): the value of a `DPoP-Nonce` header, which the next
/// proof to that server carries as `nonce`.
public enum DPoPNonce {
  /// The longest nonce kept; a longer header is ignored as if absent.
  public static let maximumLength = 1024

  /// The nonce in a `DPoP-Nonce` header value, or nil when it is not one: RFC 9449 §8.1's
  /// `nonce = 1*NQCHAR` (visible ASCII but `"` and `\`), with the spaces around a header
  /// value trimmed (RFC 9110 §5.5).
  public static func parse(_ header: String?) -> String? {
    guard let header else { return nil }
    let value = header.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
    guard !value.isEmpty, value.utf8.count <= maximumLength,
      value.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C })
    else { return nil }
    return value
  }
}
