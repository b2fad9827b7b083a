import Foundation
import TestSupport
import Testing

@Suite struct ProvidersCommandTests {
  @Test func listsPresetsAndUserProvidersAsJSONAndReportsBrokenFilesOnStandardError() async throws {
    let config = try TemporaryDirectory()
    let providers = config.file("providers")
    try FileManager.default.createDirectory(atPath: providers, withIntermediateDirectories: true)
    try #"{"client_id": "my-app"}"#.write(
      toFile: providers + "/simkl.json", atomically: true, encoding: .utf8)
    try "{\n\"id\": \"broken\",\n\"flows\": [\"implicit\"]\n}".write(
      toFile: providers + "/broken.json", atomically: true, encoding: .utf8)

    let result = try await ChildProcess.run(
      Products.authtui, ["providers", "--json", "--config", config.path])
    #expect(result.status == 0)
    #expect(
      result.stderr
        == "authtui: \(providers)/broken.json:3: flows: unknown flow \"implicit\"; use \"pkce\" (browser), \"device\" (RFC 8628 code) or \"pin\" (Simkl PIN)\n"
    )
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    #expect(
      rows.map { $0["id"] as? String } == [
        "github", "gitlab", "google", "hivesigner", "microsoft", "muhajir", "simkl",
      ])
    let simkl = rows[6]
    #expect(simkl["client_id_configured"] as? Bool == true)
    #expect(simkl["usable"] as? Bool == true)
    #expect(simkl["flows"] as? [String] == ["pkce", "pin"])
    #expect(rows[2]["usable"] as? Bool == false)
  }

  @Test func printsATableWithWhatToFixAndHonoursAUTHTUI_CONFIG_DIR() async throws {
    let config = try TemporaryDirectory()
    let result = try await ChildProcess.run(
      Products.authtui, ["providers"],
      environment: ChildProcess.environment(["AUTHTUI_CONFIG_DIR": config.path]))
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.first == "ID          NAME            FLOWS         CLIENT ID  SOURCE")
    #expect(lines.contains("simkl       Simkl           pkce, pin     missing    built-in"))
    #expect(lines.contains("gitlab      GitLab          pkce, device  missing    built-in"))
    #expect(lines.contains("google      Google          pkce          missing    built-in"))
    #expect(lines.contains("microsoft   Microsoft       pkce, device  missing    built-in"))
    #expect(
      result.stdout.contains("then add \"client_id\": \"…\" to \(config.path)/providers/simkl.json")
    )
    let demo =
      "\nNo client id yet? `authtui` asks for it when you choose the provider; "
      + "`authtui demo` tries every flow first, with nothing to register.\n"
    #expect(result.stdout.hasSuffix(demo))
  }

  @Test func printsWhatToRegisterForEachPresetWordForWord() async throws {
    let config = try TemporaryDirectory()
    let result = try await ChildProcess.run(
      Products.authtui, ["providers"],
      environment: ChildProcess.environment(["AUTHTUI_CONFIG_DIR": config.path]))
    #expect(result.status == 0)
    let file = { (id: String) in "\(config.path)/providers/\(id).json" }
    let expected = """
      ID          NAME            FLOWS         CLIENT ID  SOURCE
      github      GitHub          device        missing    built-in
      gitlab      GitLab          pkce, device  missing    built-in
      google      Google          pkce          missing    built-in
      hivesigner  Hivesigner      pkce          missing    built-in
      microsoft   Microsoft       pkce, device  missing    built-in
      muhajir     Muhajir Studio  pkce          missing    built-in
      simkl       Simkl           pkce, pin     missing    built-in

      To register an application for a client id of your own:
        github      at https://github.com/settings/applications/new
                    application type: OAuth app with the device flow enabled (no client secret)
                    scopes: repo read:user
                    note: register an OAuth app (any homepage and callback URL: authtui uses the device flow, which has no redirect), tick "Enable Device Flow", and use its Client ID; no client secret
        gitlab      at https://gitlab.com/-/user_settings/applications
                    application type: application with "Confidential" unticked (no client secret)
                    redirect URI: http://127.0.0.1/callback (any port)
                    scopes: openid profile email read_user read_api read_repository write_repository
                    note: add an application that is not confidential, with the redirect URI http://127.0.0.1/callback and the scopes openid, profile, email, read_user, read_api, read_repository, write_repository; for a self-managed instance register it there and set "issuer" to the instance URL
        google      at https://console.cloud.google.com/apis/credentials
                    application type: OAuth client ID of type "Desktop app"
                    redirect URI: http://127.0.0.1/callback (any port)
                    scopes: openid email profile
                    note: create an OAuth client ID of type Desktop app; put its client_id and client_secret (not confidential for a Desktop app) in the provider file; add https://mail.google.com/ to scopes for IMAP and SMTP; while the app is in Testing, add "refresh_token_lifetime": 604800 (Google ends its refresh tokens after 7 days)
        hivesigner  at https://hivesigner.com
                    application type: Hive app account, no client secret
                    redirect URI: http://127.0.0.1/callback (any port)
                    scopes: login
                    note: create a Hive app account with no client secret and the redirect URI http://127.0.0.1/callback; its account name is the client_id
        microsoft   at https://entra.microsoft.com/#view/Microsoft_AAD_RegisteredApps/ApplicationsListBlade
                    application type: public client (Mobile and desktop applications), no client secret
                    redirect URI: http://127.0.0.1/callback (any port)
                    scopes: openid profile email offline_access
                    note: register an application whose supported account types match your tenant field, with the platform "Mobile and desktop applications" and the redirect URI http://127.0.0.1/callback (any port matches; the portal refuses http with 127.0.0.1, so add it to replyUrlsWithType in the Manifest), and "Allow public client flows" set to Yes for the device code flow; no client secret
        muhajir     at https://admin.muhajirstudio.com/
                    application type: public client (no client secret)
                    redirect URI: http://127.0.0.1:8765/callback
                    scopes: openid profile email offline_access
                    note: register an application with the web origin http://127.0.0.1:8765 and the redirect path /callback
        simkl       at https://simkl.com/settings/developer/
                    application type: app without a client secret (PKCE)
                    redirect URI: http://127.0.0.1:8765/callback
                    scopes: none asked for
                    note: create an app there with the redirect URI http://127.0.0.1:8765/callback

      To fix:
        built-in preset github: client_id: no client_id: register an application at https://github.com/settings/applications/new (register an OAuth app (any homepage and callback URL: authtui uses the device flow, which has no redirect), tick "Enable Device Flow", and use its Client ID; no client secret), then add "client_id": "…" to \(file("github"))
        built-in preset gitlab: client_id: no client_id: register an application at https://gitlab.com/-/user_settings/applications (add an application that is not confidential, with the redirect URI http://127.0.0.1/callback and the scopes openid, profile, email, read_user, read_api, read_repository, write_repository; for a self-managed instance register it there and set "issuer" to the instance URL), then add "client_id": "…" to \(file("gitlab"))
        built-in preset google: client_id: no client_id: register an application at https://console.cloud.google.com/apis/credentials (create an OAuth client ID of type Desktop app; put its client_id and client_secret (not confidential for a Desktop app) in the provider file; add https://mail.google.com/ to scopes for IMAP and SMTP; while the app is in Testing, add "refresh_token_lifetime": 604800 (Google ends its refresh tokens after 7 days)), then add "client_id": "…" to \(file("google"))
        built-in preset hivesigner: client_id: no client_id: register an application at https://hivesigner.com (create a Hive app account with no client secret and the redirect URI http://127.0.0.1/callback; its account name is the client_id), then add "client_id": "…" to \(file("hivesigner"))
        built-in preset microsoft: client_id: no client_id: register an application at https://entra.microsoft.com/#view/Microsoft_AAD_RegisteredApps/ApplicationsListBlade (register an application whose supported account types match your tenant field, with the platform "Mobile and desktop applications" and the redirect URI http://127.0.0.1/callback (any port matches; the portal refuses http with 127.0.0.1, so add it to replyUrlsWithType in the Manifest), and "Allow public client flows" set to Yes for the device code flow; no client secret), then add "client_id": "…" to \(file("microsoft"))
        built-in preset muhajir: client_id: no client_id: register an application at https://admin.muhajirstudio.com/ (register an application with the web origin http://127.0.0.1:8765 and the redirect path /callback), then add "client_id": "…" to \(file("muhajir"))
        built-in preset simkl: client_id: no client_id: register an application at https://simkl.com/settings/developer/ (create an app there with the redirect URI http://127.0.0.1:8765/callback), then add "client_id": "…" to \(file("simkl"))

      No client id yet? `authtui` asks for it when you choose the provider; `authtui demo` tries every flow first, with nothing to register.

      """
    #expect(result.stdout == expected)
  }

  @Test func theJSONCarriesTheSameRegistrationFacts() async throws {
    let config = try TemporaryDirectory()
    let result = try await ChildProcess.run(
      Products.authtui, ["providers", "--json"],
      environment: ChildProcess.environment(["AUTHTUI_CONFIG_DIR": config.path]))
    #expect(result.status == 0)
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    // Every preset but the templates says what to register.
    #expect(rows.filter { $0["registration"] is [String: Any] }.count == rows.count)
    func registration(_ id: String) -> [String: Any] {
      rows.first { $0["id"] as? String == id }?["registration"] as? [String: Any] ?? [:]
    }
    let hive = registration("hivesigner")
    #expect(hive["application_type"] as? String == "Hive app account, no client secret")
    #expect(hive["redirect_uri"] as? String == "http://127.0.0.1/callback")
    #expect(hive["redirect_any_port"] as? Bool == true)
    #expect(hive["scopes"] as? [String] == ["login"])
    #expect(hive["url"] as? String == "https://hivesigner.com")
    #expect(hive["post_logout_redirect_uri"] is NSNull)
    let microsoft = registration("microsoft")
    #expect(
      microsoft["application_type"] as? String
        == "public client (Mobile and desktop applications), no client secret")
    #expect(microsoft["redirect_uri"] as? String == "http://127.0.0.1/callback")
    #expect(microsoft["redirect_any_port"] as? Bool == true)
    #expect(microsoft["scopes"] as? [String] == ["openid", "profile", "email", "offline_access"])
    let simkl = registration("simkl")
    #expect(simkl["redirect_uri"] as? String == "http://127.0.0.1:8765/callback")
    #expect(simkl["redirect_any_port"] as? Bool == false)
    #expect(simkl["scopes"] as? [String] == [])
    #expect((simkl["note"] as? String)?.hasPrefix("create an app there") == true)
  }
}
