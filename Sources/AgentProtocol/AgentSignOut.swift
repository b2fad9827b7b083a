import Foundation
import JSON

/// What signing an account out did, for `authtui logout` to say: the revocation's outcome, the
/// provider's sign-out page to open, and where the user withdraws access by hand.
public struct AgentSignOut: Sendable, Equatable {
  /// What happened at the provider (`revocation`, and for a failure `revocation_code` and
  /// `revocation_message`).
  public enum Revocation: Sendable, Equatable {
    /// The provider confirmed (`revoked`).
    case revoked
    /// The provider has no revocation endpoint (`unsupported`).
    case unsupported
    /// Not asked: `--local-only`, or no token to revoke (`skipped`).
    case skipped
    /// The provider is not configured any more (`provider_missing`).
    case providerMissing
    /// The provider refused or could not be reached (`failed`), with the error's code and
    /// sentence.
    case failed(code: String, message: String)
  }

  /// How messages name the account: `simkl/alice`, or `the damaged account #2 (simkl/alice)`
  /// (`account`).
  public let account: String
  /// True when the row was damaged and removed by id, unread (`damaged`).
  public let damaged: Bool
  /// The revocation's outcome.
  public let revocation: Revocation
  /// The provider's RP-initiated logout address to open, with its `id_token_hint`
  /// (`end_session_url`).
  public let endSessionURL: URL?
  /// Where the user withdraws authtui's access at the provider, if it says
  /// (`access_settings_url`).
  public let accessSettingsURL: String?

  /// A sign-out of `account` that did `revocation`.
  public init(
    account: String, damaged: Bool, revocation: Revocation, endSessionURL: URL?,
    accessSettingsURL: String?
  ) {
    self.account = account
    self.damaged = damaged
    self.revocation = revocation
    self.endSessionURL = endSessionURL
    self.accessSettingsURL = accessSettingsURL
  }

  var json: OrderedJSON {
    var members: [(String, OrderedJSON)] = [
      ("account", .string(account)), ("damaged", .bool(damaged)),
    ]
    switch revocation {
    case .revoked: members.append(("revocation", "revoked"))
    case .unsupported: members.append(("revocation", "unsupported"))
    case .skipped: members.append(("revocation", "skipped"))
    case .providerMissing: members.append(("revocation", "provider_missing"))
    case .failed(let code, let message):
      members += [
        ("revocation", "failed"), ("revocation_code", .string(code)),
        ("revocation_message", .string(message)),
      ]
    }
    members += [
      ("end_session_url", endSessionURL.map { .string($0.absoluteString) } ?? .null),
      ("access_settings_url", accessSettingsURL.map(OrderedJSON.string) ?? .null),
    ]
    return .object(members)
  }

  init?(json members: [String: JSONValue]) {
    guard let account = members["account"]?.stringValue,
      case .bool(let damaged)? = members["damaged"]
    else { return nil }
    let revocation: Revocation
    switch members["revocation"]?.stringValue {
    case "revoked": revocation = .revoked
    case "unsupported": revocation = .unsupported
    case "skipped": revocation = .skipped
    case "provider_missing": revocation = .providerMissing
    case "failed":
      guard let code = members["revocation_code"]?.stringValue,
        let message = members["revocation_message"]?.stringValue
      else { return nil }
      revocation = .failed(code: code, message: message)
    default: return nil
    }
    // An address that would not be written back the same is not one the agent sent.
    guard let endSessionText = OptionalMember.string(members["end_session_url"]) else {
      return nil
    }
    let endSessionURL = endSessionText.flatMap { URL(string: $0) }
    guard endSessionURL?.absoluteString == endSessionText else { return nil }
    guard let accessSettingsURL = OptionalMember.string(members["access_settings_url"])
    else { return nil }
    self.init(
      account: account, damaged: damaged, revocation: revocation, endSessionURL: endSessionURL,
      accessSettingsURL: accessSettingsURL)
  }
}
