/// The account name a person types on a consent or verification page. It becomes the identity
/// the provider reports: `sub` and `preferred_username`, Simkl's `user.name`, Hivesigner's
/// `username`, and an e-mail address `NAME@example.com`.
enum UserName {
  /// The name shown in the field before anyone types.
  static let suggested = "alice"

  /// The name trimmed, or nil when it is not 1–64 characters of `A-Z a-z 0-9 . _ -`.
  static func validated(_ text: String?) -> String? {
    guard let trimmed = text?.trimmingSpaces(), !trimmed.isEmpty, trimmed.count <= 64 else {
      return nil
    }
    let allowed = trimmed.unicodeScalars.allSatisfy { scalar in
      scalar.isASCII
        && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
          || ("0"..."9").contains(scalar) || scalar == "." || scalar == "_" || scalar == "-")
    }
    return allowed ? trimmed : nil
  }

  /// What the page says when a name is refused.
  static let rule = "Type a user name of 1 to 64 letters, digits, dots, dashes or underscores."

  /// The e-mail address the sandbox reports for `name`.
  static func email(_ name: String) -> String { name.lowercased() + "@example.com" }
}

extension String {
  func trimmingSpaces() -> String {
    String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
  }
}
