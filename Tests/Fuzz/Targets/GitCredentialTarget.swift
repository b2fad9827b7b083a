import Providers

extension FuzzTargets {
  /// The routes the git-credential target matches requests against: a host, a longer path
  /// under it, a port and a loopback http URL.
  private static let gitRoutes: [GitCredentialRoute] = [
    "https://git.example.com", "https://git.example.com/team/app", "https://example.org:8443/a",
    "http://127.0.0.1:8080",
  ].compactMap { url in
    guard case .success(let prefix) = GitURLPrefix.parse(url) else { return nil }
    return GitCredentialRoute(url: url, prefix: prefix, account: "work/alice", username: nil)
  }

  /// What git writes to `authtui git-credential get` (`GitCredentialRequest.parse`), and the
  /// route chosen for it.
  ///
  /// No key is empty or holds `=`, no value a line break; a request read, written back as
  /// `key=value` lines, reads as itself (written with CRLF, since git drops one CR and a value
  /// may end in another); a route chosen has the request's scheme and host.
  static let gitCredential = FuzzTarget(
    name: "git-credential", summary: "GitCredentialRequest: git's credential helper input"
  ) { bytes in
    _ = GitCredentialRequest.isComplete(bytes)
    guard let request = try? GitCredentialRequest.parse(bytes) else { return }
    for (key, value) in request.attributes {
      require(!key.isEmpty && !key.contains("="), "key \(key.debugDescription)")
      require(!value.contains("\n"), "value \(value.debugDescription) holds a line break")
    }
    let written = request.attributes.map { "\($0.key)=\($0.value)\r\n" }.joined() + "\r\n"
    let again = try? GitCredentialRequest.parse(Array(written.utf8))
    require(again == request, "written back, the request reads differently: \(written)")
    guard let route = GitCredentialRoute.route(for: request, in: gitRoutes) else { return }
    let asked = GitURLPrefix(
      scheme: request.scheme ?? "", host: request.host ?? "", path: request.path ?? "")
    require(
      route.prefix.scheme == asked.scheme && route.prefix.host == asked.host,
      "\(route.url) chosen for \(asked)")
    _ = route.username(for: request)
  }
}
