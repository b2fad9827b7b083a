import AuthCore

/// One entry of `config.json`'s `git` object: which account answers git for the URLs under
/// `prefix`, and with which user name.
///
/// ```json
/// "git": { "https://git.example.com": "work/alice",
///          "https://gitlab.com/team": { "account": "gitlab/me", "username": "oauth2" } }
/// ```
public struct GitCredentialRoute: Sendable, Equatable {
  /// The URL prefix as written in config.json.
  public var url: String
  /// Its scheme, host and path, compared with what git asks about.
  public var prefix: GitURLPrefix
  /// The account, `PROVIDER/LABEL`.
  public var account: String
  /// The user name git is given; nil for the account's label.
  public var username: String?

  public init(url: String, prefix: GitURLPrefix, account: String, username: String?) {
    self.url = url
    self.prefix = prefix
    self.account = account
    self.username = username
  }

  /// The user name answered: the configured one, else the one git already has (from the URL
  /// or `credential.username`), else the account's label.
  public func username(for request: GitCredentialRequest) -> String {
    if let username { return username }
    if let given = request.username, !given.isEmpty { return given }
    return String(account.split(separator: "/", maxSplits: 1).last ?? Substring(account))
  }

  /// The route that serves `request`: scheme and host equal, the longest path prefix that
  /// holds the request's path (whole segments; `team/app` serves `team/app.git`); nil when
  /// none does, or when the path has `.` or `..` segments and an entry for the host has a
  /// path (`unresolvedPath`).
  public static func route(for request: GitCredentialRequest, in routes: [GitCredentialRoute])
    -> GitCredentialRoute?
  {
    guard let scheme = request.scheme, let host = request.host,
      unresolvedPath(of: request, in: routes) == nil
    else { return nil }
    let asked = GitURLPrefix(scheme: scheme, host: host, path: request.path ?? "")
    return routes.filter { $0.prefix.serves(asked, pathKnown: request.path != nil) }
      .max { $0.prefix.segments.count < $1.prefix.segments.count }
  }

  /// The request's path when it holds a `.` or `..` segment (written so, or percent-encoded:
  /// `%2e%2e`, `.%2E`) and an entry for its scheme and host has a path, so that which entry
  /// serves it depends on how the path resolves; nil otherwise. git sends the path as the URL
  /// has it (decoded): `team/app/%2e%2e/%2e%2e/other/repo.git` comes as
  /// `team/app/../../other/repo.git`, which `team/app` would serve by its first segments while
  /// the server resolves it to `other/repo.git`. Servers and proxies resolve such paths
  /// differently (some never decode `%2e`), so no entry serves it.
  public static func unresolvedPath(
    of request: GitCredentialRequest, in routes: [GitCredentialRoute]
  ) -> String? {
    guard let scheme = request.scheme, let host = request.host, let path = request.path else {
      return nil
    }
    let asked = GitURLPrefix(scheme: scheme, host: host, path: path)
    guard asked.segments.contains(where: { $0 == "." || $0 == ".." }) else { return nil }
    let pathRoutes = routes.filter {
      $0.prefix.scheme == asked.scheme && $0.prefix.host == asked.host
        && !$0.prefix.segments.isEmpty
    }
    return pathRoutes.isEmpty ? nil : path
  }
}

/// The scheme, host (with a port other than the scheme's default) and path segments of a URL,
/// normalized as git compares them: scheme and host without regard to case, the path as it is.
public struct GitURLPrefix: Sendable, Equatable, Hashable {
  /// `https`.
  public var scheme: String
  /// `git.example.com` or `git.example.com:8443`.
  public var host: String
  /// `["team", "app"]`.
  public var segments: [String]

  /// The parts as git sends them (`protocol`, `host`, `path`). Percent-encoded unreserved
  /// characters of the path are decoded (RFC 3986 §6.2.2.2: `%2e` is `.`, `%7E` is `~`); the
  /// rest of it stays as it is.
  public init(scheme: String, host: String, path: String) {
    self.scheme = scheme.lowercased()
    self.host = Self.normalized(host: host.lowercased(), scheme: self.scheme)
    segments = path.split(separator: "/").map { Self.decodingUnreserved(String($0)) }
  }

  /// `segment` with every `%XX` that encodes an unreserved character (RFC 3986 §2.3: letters,
  /// digits, `-`, `.`, `_`, `~`) decoded; other escapes stay.
  static func decodingUnreserved(_ segment: String) -> String {
    guard segment.contains("%") else { return segment }
    var result = ""
    var rest = Substring(segment)
    while let percent = rest.firstIndex(of: "%") {
      result += rest[..<percent]
      let hex = rest[percent...].dropFirst().prefix(2)
      if hex.count == 2, hex.allSatisfy(\.isHexDigit), let value = UInt8(hex, radix: 16),
        case let character = Character(Unicode.Scalar(value)),
        character.isASCII
          && (character.isLetter || character.isNumber || "-._~".contains(character))
      {
        result.append(character)
        rest = rest[percent...].dropFirst(3)
      } else {
        result.append("%")
        rest = rest[percent...].dropFirst()
      }
    }
    return result + rest
  }

  /// True when this prefix serves `asked`: same scheme and host, and this path's segments
  /// begin `asked`'s (the last one may lack `asked`'s `.git`). A prefix with a path serves
  /// nothing when git did not send the path.
  func serves(_ asked: GitURLPrefix, pathKnown: Bool) -> Bool {
    guard scheme == asked.scheme, host == asked.host else { return false }
    if segments.isEmpty { return true }
    guard pathKnown, asked.segments.count >= segments.count else { return false }
    for (index, segment) in segments.enumerated() {
      let other = asked.segments[index]
      let last = index == asked.segments.count - 1
      guard other == segment || (last && other == segment + ".git") else { return false }
    }
    return true
  }

  /// The URL in config.json, or why it cannot be one (the rest of a sentence).
  public static func parse(_ url: String) -> Result<GitURLPrefix, GitURLProblem> {
    guard let split = url.range(of: "://") else { return .failure(.noScheme) }
    let scheme = url[..<split.lowerBound]
    guard let first = scheme.first, first.isLetter,
      scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
    else { return .failure(.noScheme) }
    let rest = url[split.upperBound...]
    guard !rest.contains(where: { $0 == "?" || $0 == "#" }) else {
      return .failure(.queryOrFragment)
    }
    let authority = rest.prefix { $0 != "/" }
    guard !authority.contains("@") else { return .failure(.userInURL) }
    guard !authority.isEmpty, !authority.contains(where: { $0.isWhitespace || $0.isNewline })
    else { return .failure(.noHost) }
    if let port = portText(of: String(authority)) {
      guard let number = Int(port), (1...65535).contains(number) else {
        return .failure(.badPort)
      }
    }
    let prefix = GitURLPrefix(
      scheme: String(scheme), host: String(authority),
      path: String(rest.dropFirst(authority.count)))
    if prefix.scheme == "http", !isLoopback(prefix.host) {
      return .failure(.plainHTTP)
    }
    return .success(prefix)
  }

  /// The text after the port's colon in `host`, if it has one (`[::1]:8080` → `8080`).
  private static func portText(of host: String) -> Substring? {
    guard let colon = host.lastIndex(of: ":") else { return nil }
    if host.hasPrefix("["), let close = host.lastIndex(of: "]"), close > colon { return nil }
    return host[host.index(after: colon)...]
  }

  /// `host` without the scheme's default port (`:443` for https, `:80` for http).
  private static func normalized(host: String, scheme: String) -> String {
    let defaults = ["https": "443", "http": "80"]
    guard let port = portText(of: host), let standard = defaults[scheme], port == standard
    else { return host }
    return String(host.dropLast(port.count + 1))
  }

  /// True for 127.0.0.1, localhost and [::1], with any port: the hosts every check that
  /// allows plain http allows (`ProviderConfiguration.isLoopbackHost`).
  private static func isLoopback(_ host: String) -> Bool {
    let name = portText(of: host).map { String(host.dropLast($0.count + 1)) } ?? host
    return ProviderConfiguration.isLoopbackHost(name)
  }
}

/// Why a key of the `git` object is not a URL prefix.
public enum GitURLProblem: Error, Sendable, Equatable, CustomStringConvertible {
  case noScheme, noHost, badPort, userInURL, queryOrFragment, plainHTTP

  public var description: String {
    switch self {
    case .noScheme:
      return "is not a URL: write it with its scheme, as git sees it (https://git.example.com)"
    case .noHost: return "has no host: write https://HOST or https://HOST/PATH"
    case .badPort: return "has a port that is not a number from 1 to 65535"
    case .userInURL:
      return "names a user in the URL: give it as {\"account\": …, \"username\": …} instead"
    case .queryOrFragment: return "holds a query or fragment (? or #), which git never sends"
    case .plainHTTP:
      return "uses plain http, which would send the token unencrypted: use https "
        + "(http only for 127.0.0.1, localhost and [::1])"
    }
  }
}
