import Crypto

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

  /// A stable number for `name`, as providers that identify accounts by number report it in
  /// `sub` (GitLab's user id, Google's account id): never the name itself.
  /// A smaller stable number for `name` (below 2^24), as Simkl's account id and GitHub's user
  /// id are reported: never the name itself.
  static func smallNumericID(_ name: String) -> Int {
    SHA256.hash(name).prefix(3).reduce(0) { $0 << 8 | Int($1) }
  }

  static func numericID(_ name: String) -> String {
    let digest = SHA256.hash(name)
    let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    return String(value % 9_000_000_000 + 1_000_000_000)
  }
}

extension String {
  func trimmingSpaces() -> String {
    String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
  }
}
