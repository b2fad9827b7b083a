import Foundation
import Loopback

/// The page an RP-initiated logout returns to when authtui serves it: an end-session URL whose
/// `post_logout_redirect_uri` is `http://127.0.0.1:PORT/PATH` (PORT 0: any free port). Other
/// addresses (https, `localhost`, no port, a port below 1024) are the provider's or another
/// program's to answer, and the URL is opened as it is.
struct PostLogoutLanding: Sendable, Equatable {
  /// The port to listen on; 0 lets the kernel choose.
  let port: UInt16
  /// The path whose GET is the return.
  let path: String
  /// The redirect URI as the end-session URL has it, up to the port.
  let uriAfterPort: String

  /// The landing named by `endSession`'s `post_logout_redirect_uri`, when authtui can serve it.
  init?(endSession url: URL) {
    guard
      let uri = Self.query(of: url).first(where: { $0.name == "post_logout_redirect_uri" })?
        .value
    else { return nil }
    let prefix = "http://127.0.0.1:"
    guard uri.hasPrefix(prefix), !uri.contains("#") else { return nil }
    let rest = uri.dropFirst(prefix.count)
    let digits = rest.prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty, digits.count <= 5, let port = Int(digits),
      port == 0 || (1024...65535).contains(port)
    else { return nil }
    let afterPort = rest.dropFirst(digits.count)
    guard afterPort.hasPrefix("/") else { return nil }
    self.port = UInt16(port)
    path = String(afterPort.prefix { $0 != "?" })
    uriAfterPort = String(afterPort)
  }

  /// `url` with its `post_logout_redirect_uri` set to this landing on `port` and `state` set
  /// to `state`, in place of any the URL had.
  func endSession(_ url: URL, port: UInt16, state: String) -> URL {
    let uri = "http://127.0.0.1:\(port)\(uriAfterPort)"
    var pairs: [FormEncoding.Pair] = []
    for pair in Self.query(of: url) where pair.name != "state" {
      if pair.name == "post_logout_redirect_uri" {
        pairs += [("post_logout_redirect_uri", uri), ("state", state)]
      } else {
        pairs.append(pair)
      }
    }
    return Self.replacingQuery(of: url, with: pairs)
  }

  /// `url` without `post_logout_redirect_uri` and `state`: for a landing that cannot be
  /// served, so the provider keeps the browser instead of sending it nowhere.
  static func withoutReturn(_ url: URL) -> URL {
    replacingQuery(
      of: url,
      with: query(of: url).filter { $0.name != "post_logout_redirect_uri" && $0.name != "state" })
  }

  private static func query(of url: URL) -> [FormEncoding.Pair] {
    let text = url.absoluteString
    guard let mark = text.firstIndex(of: "?") else { return [] }
    let query = text[text.index(after: mark)...].prefix { $0 != "#" }
    return FormEncoding.decode(query)
  }

  private static func replacingQuery(of url: URL, with pairs: [FormEncoding.Pair]) -> URL {
    let text = url.absoluteString
    let base = text.prefix { $0 != "?" && $0 != "#" }
    let query = pairs.isEmpty ? "" : "?" + FormEncoding.encode(pairs)
    return URL(string: base + query) ?? url
  }
}
