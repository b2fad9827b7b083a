/// The passphrase prompt: one field to unlock a vault, two to create one.
public struct UnlockForm: Sendable, Equatable {
  /// True when there is no vault yet and the passphrase is chosen now.
  public var creating: Bool
  /// The passphrase.
  public var passphrase = TextField(isSecret: true)
  /// The passphrase again (only when creating).
  public var repeated = TextField(isSecret: true)
  /// Which field has the focus: 0 the passphrase, 1 the repetition.
  public var focus = 0
  /// The request in flight, while the key is derived (scrypt takes about half a second).
  public var pending: RequestID?
  /// Why the last try failed.
  public var problem: String?

  /// A prompt to unlock (or, with `creating`, to create) the vault.
  public init(creating: Bool, problem: String? = nil) {
    self.creating = creating
    self.problem = problem
  }
}
