import Foundation
import JSON

/// What signing an account out did, for `authtui logout` to say: the revocation's outcome, the
/// provider's sign-out page to open, and where the user withdraws access by hand.
public struct AgentSignOut: Sendable, Equatable {
  /// How messages name the account: `simkl/alice`, or `the damaged account #2 (simkl/alice)`
  /// (`account`).
  public let account: String
  /// True when the row was damaged and removed by id, unread (`damaged`).
  public let damaged: Bool
  /// The revocation's outcome (`revocation`, and for a failure `revocation_code` and
  /// `revocation_message`).
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
    members.append(("revocation", .string(revocation.wireName)))
    if case .failed(let code, let message) = revocation {
      members += [("revocation_code", .string(code)), ("revocation_message", .string(message))]
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
    guard
      let revocation = members["revocation"]?.stringValue.flatMap({
        Revocation(
          wireName: $0, code: members["revocation_code"]?.stringValue,
          message: members["revocation_message"]?.stringValue)
      })
    else { return nil }
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
