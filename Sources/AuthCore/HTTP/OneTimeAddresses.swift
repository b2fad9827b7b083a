import Crypto
import Foundation
import Loopback

/// One-time loopback addresses, `http://127.0.0.1:PORT/PREFIX/RANDOM`, each standing for a URL
/// that carries secrets: an authorization request's `state`, `code_challenge` and `nonce`, or
/// an end-session URL's `id_token_hint`. The browser is given the short address instead of the
/// URL, because a program's argv is readable by every local user (`ps`, `/proc/PID/cmdline`).
///
/// The first GET of an address is answered `303 See Other` to its URL (`Cache-Control:
/// no-store`, `Referrer-Policy: no-referrer`); every later one `410 Gone`. Since the browser
/// fetches the address once, a second fetch means someone may have fetched it first and read
/// the URL: `answer` reports it, and the owner starts over with fresh secrets.
///
/// RANDOM is 32 bytes (256 bits) from the random source, base64url: it cannot be guessed, so an
/// address is only known to whoever read the browser's argv.
actor OneTimeAddresses {
  /// What a request under the prefix did.
  enum Fetch: Sendable, Equatable {
    /// Not an address of this table (or not under the prefix): the caller answers it.
    case notOurs
    /// The first GET of an address of `group`: redirected to its URL.
    case redirected(group: Int)
    /// A later GET of an address of `group`: answered 410. `live` is false once the group was
    /// retired (its secrets are no longer accepted anyway, so nothing is at stake).
    case fetchedAgain(group: Int, live: Bool)
    /// Under the prefix, but no such address, or not a GET.
    case refused
  }

  private struct Address {
    let target: URL
    let group: Int
    var fetched: Bool
  }

  /// The path prefix, with both slashes: `/sign-in/`.
  let prefix: String
  private let usedPage: HTTPResponse
  private var addresses: [String: Address] = [:]
  private var retired: Set<Int> = []

  /// A table answering `/NAME/RANDOM`; `usedPage` is the 410 page.
  init(name: String, usedPage: HTTPResponse) {
    prefix = "/\(name)/"
    self.usedPage = usedPage
  }

  /// A new address for `target`, in `group` (the attempt generation it belongs to); returns
  /// its path, to be appended to `http://127.0.0.1:PORT`.
  func add(_ target: URL, group: Int, random: some RandomSource) -> String {
    var token = Base64URL.encode(random.bytes(count: 32))
    while addresses[token] != nil { token = Base64URL.encode(random.bytes(count: 32)) }
    // An address of a retired group is born used: it must never hand out dead secrets' URL.
    addresses[token] = Address(target: target, group: group, fetched: retired.contains(group))
    return prefix + token
  }

  /// From now on a second fetch of an address of `group` is no alarm: its secrets are dead.
  /// Its addresses that were never fetched stop redirecting (they answer 410 too).
  func retire(group: Int) {
    retired.insert(group)
    for (token, address) in addresses where address.group == group {
      addresses[token]?.fetched = true
    }
  }

  /// The answer to `request` when its path is under the prefix, and what it did.
  func answer(_ request: HTTPRequest) -> (response: HTTPResponse?, fetch: Fetch) {
    guard request.path.hasPrefix(prefix) else { return (nil, .notOurs) }
    let token = String(request.path.dropFirst(prefix.count))
    guard var address = addresses[token] else { return (RedirectPages.notFound, .refused) }
    guard request.method == "GET" else { return (RedirectPages.methodNotAllowed, .refused) }
    if address.fetched {
      return (usedPage, .fetchedAgain(group: address.group, live: !retired.contains(address.group)))
    }
    address.fetched = true
    addresses[token] = address
    return (RedirectPages.oneTimeRedirect(to: address.target), .redirected(group: address.group))
  }
}
