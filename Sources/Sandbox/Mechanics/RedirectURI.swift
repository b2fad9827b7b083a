import AuthCore
import Loopback

/// Redirect URI rules shared by the profiles.
enum RedirectURI {
  /// True for `http://127.0.0.1:PORT/callback` with any port (RFC 8252 §7.3): what every
  /// profile but Simkl accepts without registration. `localhost` is refused (RFC 8252 §8.3), as
  /// are other paths, queries and fragments.
  static func isLoopbackCallback(_ uri: String) -> Bool {
    let prefix = "http://127.0.0.1"
    guard uri.hasPrefix(prefix) else { return false }
    var rest = uri.dropFirst(prefix.count)
    if rest.hasPrefix(":") {
      let digits = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
      guard !digits.isEmpty, digits.count <= 5, let port = Int(digits), (1...65535).contains(port)
      else { return false }
      rest = rest.dropFirst(1 + digits.count)
    }
    return rest == "/callback"
  }

  /// `uri` with `parameters` added to its query (RFC 6749 §4.1.2: the existing query is kept).
  static func appending(_ parameters: [FormEncoding.Pair], to uri: String) -> String {
    guard !parameters.isEmpty else { return uri }
    let separator = uri.contains("?") ? "&" : "?"
    return uri + separator + FormEncoding.encode(parameters)
  }
}
