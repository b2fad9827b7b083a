import Foundation

/// An issuer that differs per id_token (`id_token_issuer_fields` in a provider file): a URL with one
/// `{claim}` placeholder that each token's own claim fills. Microsoft's `common` and
/// `organizations` endpoints publish `https://login.microsoftonline.com/{tenantid}/v2.0` and
/// sign each id_token with its tenant's issuer, the tenant id in `tid`: the template
/// `https://login.microsoftonline.com/{tid}/v2.0` checks `iss` against the token's own `tid`,
/// so the issuer check stays exact for every tenant instead of being switched off.
public struct IssuerTemplate: Sendable, Equatable {
  /// The text before the placeholder.
  public let prefix: String
  /// The claim whose value fills the placeholder (`tid`).
  public let claim: String
  /// The text after the placeholder.
  public let suffix: String

  /// The template `text`, nil unless it holds exactly one `{claim}` placeholder (a claim name
  /// of letters, digits and `_`) after a non-empty prefix.
  public init?(_ text: String) {
    guard let open = text.firstIndex(of: "{"), let close = text[open...].firstIndex(of: "}")
    else { return nil }
    let name = String(text[text.index(after: open)..<close])
    let rest = text[text.index(after: close)...]
    guard !name.isEmpty, !rest.contains("{"), !rest.contains("}"),
      !text[..<open].contains("}"), open != text.startIndex,
      name.unicodeScalars.allSatisfy({ Self.isNameCharacter($0) })
    else { return nil }
    prefix = String(text[..<open])
    claim = name
    suffix = String(rest)
  }

  /// The template as written.
  public var text: String { prefix + "{\(claim)}" + suffix }

  /// The issuer for a token whose claim is `value`.
  public func filled(with value: String) -> String { prefix + value + suffix }

  /// True when `value` can fill the placeholder: 1 to 128 letters, digits, `.`, `-` or `_`
  /// (a GUID, a domain), so a claim can never add a path, a query or another host.
  public static func isSegment(_ value: String) -> Bool {
    !value.isEmpty && value.count <= 128 && !value.hasPrefix(".")
      && value.unicodeScalars.allSatisfy {
        $0.isASCII && (isNameCharacter($0) || $0 == "." || $0 == "-")
      }
  }

  /// True when a discovery document's `issuer` has this template's shape: the same text around
  /// either a placeholder of the provider's own (`{tenantid}`) or one concrete segment (the
  /// tenant of a `consumers` or tenant-specific document).
  public func describes(_ published: String) -> Bool {
    guard published.hasPrefix(prefix), published.hasSuffix(suffix),
      published.count > prefix.count + suffix.count
    else { return false }
    let middle = String(published.dropFirst(prefix.count).dropLast(suffix.count))
    return Self.isSegment(middle) || Self.isPlaceholder(middle)
  }

  /// True when `value` is `{name}`: a placeholder, not a concrete issuer.
  static func isPlaceholder(_ value: String) -> Bool {
    value.hasPrefix("{") && value.hasSuffix("}") && value.count > 2
      && value.dropFirst().dropLast().unicodeScalars.allSatisfy { isNameCharacter($0) }
  }

  /// True when a published issuer names one issuer rather than a template.
  public func isConcrete(_ published: String) -> Bool {
    describes(published)
      && !Self.isPlaceholder(String(published.dropFirst(prefix.count).dropLast(suffix.count)))
  }

  private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCII
      && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        || ("0"..."9").contains(scalar) || scalar == "_")
  }
}
