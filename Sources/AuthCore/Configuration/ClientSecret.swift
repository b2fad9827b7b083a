/// The client secret of an installed application where the provider hands one out and still
/// wants it at the token endpoint, although it cannot be kept secret (Google's "Desktop app"
/// clients: "the client secret is obviously not treated as a secret"). authtui sends it where
/// the provider requires it and nowhere else, and never prints it (`Concealed`).
public typealias ClientSecret = Concealed<ClientSecretKind>

/// The kind of `ClientSecret`.
public enum ClientSecretKind: ConcealedKind {
  public static var placeholder: String { "<client secret>" }
}
