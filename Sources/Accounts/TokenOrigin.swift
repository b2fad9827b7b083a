import AuthCore
import Foundation
import Vault

/// Where an account's tokens were issued: the origin (`https://host[:port]`) of the token
/// endpoint it signed in at, kept among its identity fields. Its refresh token is only ever sent
/// back there: a provider file pointed at another server later (`providers add ID --issuer URL
/// --replace`, an edit, a removed provider added again) would otherwise receive it at the next
/// refresh or sign-out. An account signed in before authtui kept it has none, and is not
/// checked.
enum TokenOrigin {
  /// The identity field that keeps it.
  static let field = "token_origin"

  /// `url`'s scheme, host and port, lowercased, the scheme's default port left out; nil for a
  /// URL without a host.
  static func of(_ url: URL?) -> String? {
    guard let url, let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else {
      return nil
    }
    let defaultPort = ["https": 443, "http": 80][scheme]
    let port = url.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
    return "\(scheme)://\(host)\(port)"
  }

  /// Where `record`'s provider would now send its tokens, when that is another server than
  /// the one it signed in at; nil when it is the same, or unknown.
  static func moved(_ record: AccountRecord, to client: ProviderClient) -> (
    signedInAt: String, now: String
  )? {
    guard let signedIn = record.identity[field],
      let now = of(client.configuration.tokenEndpoint), now != signedIn
    else { return nil }
    return (signedIn, now)
  }
}
