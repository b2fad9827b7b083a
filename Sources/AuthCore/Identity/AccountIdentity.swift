import Foundation
import JSON

/// Who signed in, as the provider describes the account: the label that names the account in
/// authtui (`PROVIDER/LABEL`, editable later), the provider's stable identifier, and a few
/// fields to show.
public struct AccountIdentity: Sendable, Equatable {
  /// The account's label: one line of at most `maximumLabelLength` printable characters.
  public var label: String
  /// The provider's stable identifier for the account (`sub`, Simkl's account id…), when the
  /// settings name one.
  public var subject: String?
  /// An e-mail address, when the answer has one.
  public var email: String?
  /// A display name, when the answer has one.
  public var name: String?
  /// The tenant or directory the account signed in through (Microsoft's `tid`), when the
  /// settings name one.
  public var tenant: String?
  /// True when the label is only the provider's stable identifier for the account (an opaque
  /// `sub`): no label path held a value, or the one that did is a subject path listed after
  /// other label paths, as a fallback (Microsoft's `["preferred_username", …, "sub"]`; a
  /// provider whose first label path is its subject, Hivesigner's `username`, names people by
  /// it). People do not recognise such a label, so a sign-in says how to choose another.
  public var labelIsSubject: Bool

  /// The longest label kept; a longer value is cut.
  public static let maximumLabelLength = 64

  /// An identity from its parts.
  public init(
    label: String, subject: String? = nil, email: String? = nil, name: String? = nil,
    tenant: String? = nil, labelIsSubject: Bool = false
  ) {
    self.labelIsSubject = labelIsSubject
    self.label = label
    self.subject = subject
    self.email = email
    self.name = name
    self.tenant = tenant
  }

  /// Reads an identity from `document` as `settings` say: the label from the first label path
  /// that holds a value, else the first subject path; throws when neither does.
  init(document: [String: JSONValue], settings: IdentityConfiguration) throws(IdentityError) {
    let subject = Self.first(settings.subjectPaths, in: document)
    let named = settings.labelPaths.enumerated().lazy.compactMap { index, path in
      Self.first([path], in: document).map { (index: index, path: path, value: $0) }
    }.first
    guard
      let label = (named?.value ?? subject).map({ String($0.prefix(Self.maximumLabelLength)) })
    else {
      throw .labelNotFound(paths: settings.labelPaths + settings.subjectPaths)
    }
    self.init(
      label: label, subject: subject, email: Self.first(settings.emailPaths, in: document),
      name: Self.first(settings.namePaths, in: document),
      tenant: Self.first(settings.tenantPaths, in: document),
      labelIsSubject: named.map { $0.index > 0 && settings.subjectPaths.contains($0.path) }
        ?? true)
  }

  /// The first path whose value is a string or number with something printable in it, on one
  /// line, without control characters or bidirectional overrides (which could make a label
  /// display as another).
  private static func first(_ paths: [String], in document: [String: JSONValue]) -> String? {
    for path in paths {
      guard let text = document.value(atPath: path)?.textValue else { continue }
      let printable = text.unicodeScalars.filter {
        let category = $0.properties.generalCategory
        return category != .control && category != .lineSeparator
          && category != .paragraphSeparator && !$0.properties.isBidiControl
      }
      let cleaned = String(String.UnicodeScalarView(printable))
        .trimmingCharacters(in: .whitespaces)
      if !cleaned.isEmpty { return cleaned }
    }
    return nil
  }
}
