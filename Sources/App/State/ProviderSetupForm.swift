import Providers

/// The setup form of a provider that has no client id yet: where to register an application,
/// the client id it gave, its client secret where the provider wants one (Google), and the
/// redirect port when the registration fixes one. Saving it writes `providers/ID.json` and
/// goes on to the sign-in.
public struct ProviderSetupForm: Sendable, Equatable {
  /// The fields, in focus order.
  public enum Field: Sendable, Equatable {
    case clientID, clientSecret, redirectPort
  }

  /// The provider set up.
  public var provider: ProviderSummary
  /// What the provider's registration asks for.
  public var setup: ProviderSetup
  /// The client id typed or pasted.
  public var clientID = TextField()
  /// The client secret, when the provider wants one; shown as dots.
  public var clientSecret: TextField?
  /// The redirect port, when the registration fixes one (prefilled with the preset's).
  public var redirectPort: TextField?
  /// The focused field.
  public var focus: Field = .clientID
  /// Why the form was not saved, said under it.
  public var problem: String?
  /// The save in flight; the form takes no second one meanwhile.
  public var pending: RequestID?

  /// The form for `provider`, whose catalog entry lacks a client id.
  public init(provider: ProviderSummary, setup: ProviderSetup) {
    self.provider = provider
    self.setup = setup
    redirectPort = setup.redirectPort.map { TextField(String($0)) }
    clientID = TextField(setup.clientID ?? "")
    clientSecret = setup.asksClientSecret ? TextField(isSecret: true) : nil
    if setup.clientID != nil, setup.asksClientSecret { focus = .clientSecret }
  }

  /// The fields shown, in focus order.
  public var fields: [Field] {
    [.clientID] + (clientSecret == nil ? [] : [.clientSecret])
      + (redirectPort == nil ? [] : [.redirectPort])
  }
}
