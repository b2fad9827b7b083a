/// What signing an account out did at its provider (RFC 7009): one outcome for the account
/// book's report, the agent's `logout` answer, `authtui logout` and the UI. The local account is
/// gone in every case.
public enum Revocation: Sendable, Equatable {
  /// The provider confirmed (`revoked`).
  case revoked
  /// The provider has no revocation endpoint; the user revokes access in its settings
  /// (`unsupported`).
  case unsupported
  /// Not asked: `--local-only`, or no token left to revoke (`skipped`).
  case skipped
  /// The provider is not configured any more, so nothing could be sent (`provider_missing`).
  case providerMissing
  /// The provider refused or could not be reached; the tokens may still work there (`failed`,
  /// with the error's machine `code` and its sentence).
  case failed(code: String, message: String)

  /// The outcome's name on the agent's wire (`revocation`).
  public var wireName: String {
    switch self {
    case .revoked: return "revoked"
    case .unsupported: return "unsupported"
    case .skipped: return "skipped"
    case .providerMissing: return "provider_missing"
    case .failed: return "failed"
    }
  }

  /// The outcome named `wireName` on the wire; a failure's code and sentence come with it.
  /// Nil for a name that is none, or a failure without them.
  public init?(wireName: String, code: String?, message: String?) {
    switch wireName {
    case "revoked": self = .revoked
    case "unsupported": self = .unsupported
    case "skipped": self = .skipped
    case "provider_missing": self = .providerMissing
    case "failed":
      guard let code, let message else { return nil }
      self = .failed(code: code, message: message)
    default: return nil
    }
  }

  /// Where the user withdraws authtui's access, for "withdraw authtui's access PLACE": the
  /// provider's page (`access_settings_url`) when it names one. The UI's dialogs and
  /// `authtui logout` say it the same way.
  public static func accessSettingsPlace(_ url: String?) -> String {
    url.map { "at \($0)" } ?? "in your account settings at the provider"
  }
}
