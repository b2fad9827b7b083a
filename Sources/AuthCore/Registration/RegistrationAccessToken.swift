/// The bearer token that lets a client read, change or delete its own registration
/// (`registration_access_token`, RFC 7592 §3, issued with RFC 7591's answer). Kept only in
/// the 0600 provider file, for the `Authorization` header; it is never printed (`Concealed`),
/// so it cannot reach a message or a log.
public typealias RegistrationAccessToken = Concealed<RegistrationAccessTokenKind>

/// The kind of `RegistrationAccessToken`.
public enum RegistrationAccessTokenKind: ConcealedKind {
  public static var placeholder: String { "<registration access token>" }
}
