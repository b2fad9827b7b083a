/// The authtui release this build belongs to; also sent as `User-Agent: authtui/VERSION`.
public enum AuthTUIVersion {
  /// Semantic version of this build.
  public static let current = "0.1.0"

  /// The `User-Agent` header value for every request authtui makes.
  public static var userAgent: String { "authtui/\(current)" }
}
