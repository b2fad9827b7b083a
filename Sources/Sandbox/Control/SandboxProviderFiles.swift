import Foundation
import JSON

/// Provider files (the JSON of authtui's `providers/` folder) that point the built-in presets
/// at a running sandbox: what `authtui demo` writes into its throwaway configuration folder, and
/// what command-line and UI tests sign in with. They override only endpoints and the client id,
/// so every quirk still comes from the presets themselves.
public enum SandboxProviderFiles {
  /// One file per provider: `simkl.json`, `hivesigner.json`, `muhajir.json`, `github.json`,
  /// `gitlab.json` and `work-gitlab.json` (two GitLab instances, each from its instance URL
  /// alone), `google.json` (with the Desktop app's client secret Google's token endpoint
  /// requires), `microsoft.json` and `sandbox.json` (the standards-complete OpenID profile,
  /// from its issuer alone).
  ///
  /// `redirectPort` is the fixed loopback port Simkl's and Muhajir's registrations require; the
  /// caller registers `http://127.0.0.1:PORT/callback` as Simkl's redirect URI with the sandbox.
  /// `loginTimeout` shortens the browser wait (seconds), for silent-denial tests and the demo.
  /// The files named in `withoutClientID` (`hivesigner.json`) leave the client id out, as a
  /// first run has it: the UI's setup form then asks for one.
  public static func make(
    baseURL: String, redirectPort: UInt16, loginTimeout: Int? = nil,
    withoutClientID: Set<String> = []
  ) -> [(name: String, json: String)] {
    func url(_ path: String) -> OrderedJSON { .string(baseURL + path) }
    let clientID = OrderedJSON.string(SandboxProfile.defaultClientID)
    let port = OrderedJSON.int(Int(redirectPort))
    let files: [(String, OrderedJSON)] = [
      (
        "simkl.json",
        [
          "preset": "simkl", "client_id": clientID,
          "authorization_endpoint": url(SandboxPaths.Simkl.authorize),
          "token_endpoint": url(SandboxPaths.Simkl.token),
          "pin_endpoint": url(SandboxPaths.Simkl.pin), "redirect_port": port,
          "identity": [
            "source": "endpoint", "endpoint": url(SandboxPaths.Simkl.userSettings),
            "label": ["user.name"], "subject": ["account.id"], "name": ["user.name"],
          ],
        ]
      ),
      (
        "hivesigner.json",
        [
          "preset": "hivesigner", "client_id": clientID,
          "authorization_endpoint": url(SandboxPaths.Hivesigner.authorize),
          "token_endpoint": url(SandboxPaths.Hivesigner.token),
        ]
      ),
      (
        "muhajir.json",
        [
          "preset": "muhajir", "client_id": clientID,
          "issuer": url(SandboxPaths.Muhajir.issuer),
          "authorization_endpoint": url(SandboxPaths.Muhajir.authorize),
          "token_endpoint": url(SandboxPaths.Muhajir.token),
          "jwks_uri": url(SandboxPaths.Muhajir.jwks), "redirect_port": port,
          "identity": [
            "source": "endpoint", "endpoint": url(SandboxPaths.Muhajir.me),
            "label": ["preferred_username", "email", "name", "sub"], "subject": ["sub"],
            "email": ["email"], "name": ["name"], "forbidden_scope_hint": "openid",
          ],
        ]
      ),
      (
        "github.json",
        [
          "preset": "github", "client_id": clientID,
          "device_authorization_endpoint": url(SandboxPaths.GitHub.deviceCode),
          "token_endpoint": url(SandboxPaths.GitHub.token),
          "identity": [
            "source": "endpoint", "endpoint": url(SandboxPaths.GitHub.user), "label": ["login"],
            "subject": ["id"], "name": ["name"], "email": ["email"],
          ],
        ]
      ),
      (
        // GitLab.com's preset pointed at another instance by its URL alone, as a user points
        // it at a self-managed GitLab: discovery there finds every endpoint.
        "gitlab.json",
        ["preset": "gitlab", "issuer": url(SandboxPaths.gitLab.issuer), "client_id": clientID]
      ),
      (
        // A second GitLab instance under its own provider id, older than 17.1: no device grant.
        "work-gitlab.json",
        [
          "preset": "gitlab", "name": "GitLab (work)",
          "issuer": url(SandboxPaths.gitLabSelfManaged.issuer), "client_id": clientID,
        ]
      ),
      (
        // Google's preset at the sandbox's /google, with the Desktop app's client secret that
        // Google's token endpoint insists on.
        "google.json",
        [
          "preset": "google", "issuer": url(SandboxPaths.Google.issuer), "client_id": clientID,
          "client_secret": .string(SandboxProfile.googleClientSecret),
        ]
      ),
      (
        // The tenant stays a field: `{tenant}` is filled from the preset's "fields" (or a
        // test's override), exactly as on login.microsoftonline.com.
        "microsoft.json",
        [
          "preset": "microsoft", "client_id": clientID,
          "issuer": url(SandboxPaths.Microsoft.issuer("{tenant}")),
          "authorization_endpoint": url(SandboxPaths.Microsoft.authorize("{tenant}")),
          "token_endpoint": url(SandboxPaths.Microsoft.token("{tenant}")),
          "device_authorization_endpoint": url(SandboxPaths.Microsoft.deviceCode("{tenant}")),
          "end_session_endpoint": url(SandboxPaths.Microsoft.logout("{tenant}")),
          "jwks_uri": url(SandboxPaths.Microsoft.keys("{tenant}")),
        ]
      ),
      (
        "sandbox.json",
        [
          "preset": "oidc", "id": "sandbox", "name": "Sandbox OpenID provider",
          "issuer": url(SandboxPaths.OIDC.issuer), "client_id": clientID,
          "flows": ["pkce", "device"], "post_logout_uses_redirect_uri": true,
        ]
      ),
    ]
    return files.map { name, fields in
      var file = fields
      if let loginTimeout, case .object(let members) = file {
        file = .object(members + [("login_timeout", .int(loginTimeout))])
      }
      if withoutClientID.contains(name), case .object(let members) = file {
        file = .object(members.filter { $0.0 != "client_id" })
      }
      return (name, file.sortedByName.prettyText + "\n")
    }
  }

  /// Writes `make(…)` into `providersDirectory` (created if missing).
  public static func write(
    to providersDirectory: URL, baseURL: String, redirectPort: UInt16, loginTimeout: Int? = nil,
    withoutClientID: Set<String> = []
  ) throws {
    try FileManager.default.createDirectory(
      at: providersDirectory, withIntermediateDirectories: true)
    for (name, json) in make(
      baseURL: baseURL, redirectPort: redirectPort, loginTimeout: loginTimeout,
      withoutClientID: withoutClientID)
    {
      try Data(json.utf8).write(
        to: providersDirectory.appendingPathComponent(name), options: .atomic)
    }
  }
}
