import AuthCore
import Spelling

/// The rules every account label follows, wherever it comes from: `login --label`, the UI's
/// sign-in form, or the provider's name for the account.
///
/// A label is what follows the provider in `PROVIDER/LABEL`, so it must read back as itself:
/// not empty, no `/` (which would make `sandbox/work/alt` look like a path of names), no
/// leading `#` (`#7` names row 7, so `token '#7'` would never reach an account labelled `#7`),
/// nothing invisible (control characters, line breaks, bidirectional controls, which make a
/// label display as another), no space at either end (which nobody sees when typing the name
/// back), and at most `maximumLength` characters.
///
/// A label typed by a person is refused with the reason (`check`), so they choose the name they
/// will type later; a label from the provider is made valid instead (`derived(from:)`), since
/// nobody could fix it. Accounts stored before these rules keep their labels: listing, naming
/// and removing them never checks.
public enum AccountLabel {
  /// The most characters a label may have (the provider's names are cut to this length too).
  public static let maximumLength = AccountIdentity.maximumLabelLength
  /// The most UTF-8 bytes a label may have: four per character, so that a few characters
  /// carrying thousands of combining marks are refused too.
  public static let maximumBytes = 4 * maximumLength

  /// What makes a text unfit to be a label.
  public enum Problem: Sendable, Equatable {
    /// Nothing, or only spaces.
    case empty
    /// More than `maximumLength` characters, or more than `maximumBytes` bytes.
    case tooLong
    /// A character that does not show: a control character, a line or paragraph separator, or
    /// a bidirectional control (the first such scalar).
    case invisibleCharacter(Unicode.Scalar)
    /// A space (or other blank) at the start or the end.
    case surroundingSpace
    /// A `#` first: `#N` names an account by its row id.
    case leadingHash
    /// A `/`: it separates the provider from the label.
    case slash
  }

  /// Refuses `label` when it breaks a rule, with `AccountsError.invalidLabel` naming the rule
  /// and a label that would do.
  public static func check(_ label: String) throws(AccountsError) {
    if let problem = problem(with: label) { throw .invalidLabel(label, problem: problem) }
  }

  /// The first rule `label` breaks, nil when it is a valid label.
  public static func problem(with label: String) -> Problem? {
    if label.allSatisfy(\.isWhitespace) { return .empty }
    if label.count > maximumLength || label.utf8.count > maximumBytes { return .tooLong }
    if let invisible = label.unicodeScalars.first(where: isInvisible) {
      return .invisibleCharacter(invisible)
    }
    if label.first?.isWhitespace == true || label.last?.isWhitespace == true {
      return .surroundingSpace
    }
    if label.hasPrefix("#") { return .leadingHash }
    if label.contains("/") { return .slash }
    return nil
  }

  /// `text` made into a valid label, or nil when nothing of it is left: invisible characters
  /// removed, each `/` turned into `-`, leading `#`s and surrounding spaces dropped, and the
  /// end cut at `maximumLength` characters (and `maximumBytes` bytes).
  public static func repaired(_ text: String) -> String? {
    let visible = String(String.UnicodeScalarView(text.unicodeScalars.filter { !isInvisible($0) }))
    var label = Substring(visible.replacingOccurrences(of: "/", with: "-"))
    while let first = label.first, first == "#" || first.isWhitespace { label = label.dropFirst() }
    var cut = ""
    for character in label.prefix(maximumLength) {
      guard cut.utf8.count + String(character).utf8.count <= maximumBytes else { break }
      cut.append(character)
    }
    let trimmed = String(cut.reversed().drop(while: \.isWhitespace).reversed())
    return problem(with: trimmed) == nil ? trimmed : nil
  }

  /// The label of a sign-in that asked for none: the provider's name for the account
  /// (`identity`), repaired when it breaks a rule; `default` when there is none or nothing of
  /// it is left.
  public static func derived(from identity: String?) -> String {
    identity.flatMap(repaired) ?? "default"
  }

  /// True for a scalar that does not show, or reorders what follows it
  /// (`TerminalText.isInvisible`, the rule a provider's display name follows too).
  static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    TerminalText.isInvisible(scalar)
  }

  /// The sentence for `problem` with `label`: the rule, why, and what to type instead.
  static func message(_ label: String, _ problem: Problem) -> String {
    let shown = MessageQuoting.quoted(label)
    let instead = repaired(label).map { "such as \"\($0)\"" } ?? "such as work"
    switch problem {
    case .empty:
      return "an account label cannot be empty; give one such as work, or none at all to take "
        + "the provider's name for you"
    case .tooLong:
      return "the label \(shown) is too long: a label has at most \(maximumLength) characters; "
        + "choose a shorter one, \(instead)"
    case .invisibleCharacter(let scalar):
      let code = "U+" + String(scalar.value, radix: 16, uppercase: true)
      return "the label \(shown) holds \(code), a character that does not show; "
        + "leave it out, \(instead)"
    case .surroundingSpace:
      return "the label \(shown) starts or ends with a space, which nobody sees when typing "
        + "it back; leave the space out, \(instead)"
    case .leadingHash:
      return "the label \(shown) starts with #, which names an account by its number in the "
        + "vault (`#7`, as `authtui list` names a damaged one); choose a label without the #, "
        + "\(instead)"
    case .slash:
      return "the label \(shown) holds /, which separates the provider from the label in "
        + "PROVIDER/LABEL; choose a label without it, \(instead)"
    }
  }
}
