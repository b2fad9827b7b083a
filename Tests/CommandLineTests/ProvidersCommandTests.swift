import Foundation
import TestSupport
import Testing

@Suite struct ProvidersCommandTests {
  @Test func aNameTypedInCapitalsIsSuggestedInItsOwnCase() async throws {
    let config = try TemporaryDirectory()
    let result = try await ChildProcess.run(
      Products.authtui, ["providers", "show", "GITHUB"],
      environment: ChildProcess.environment(["AUTHTUI_CONFIG_DIR": config.path]))
    #expect(result.status == 4)
    #expect(
      result.stderr
        == "authtui: no provider GITHUB; did you mean one of these?\n  github\n  gitlab\n")
  }

  @Test func showingAProviderWhoseFileIsBrokenPointsAtTheFileNotAtASpelling() async throws {
    let config = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: config.file("providers"), withIntermediateDirectories: true)
    try
      #"{"preset": "oidc", "issuer": "https://id.example.com", "client_id": "c", "flows": ["pim"]}"#
      .write(toFile: config.file("providers/badflow.json"), atomically: true, encoding: .utf8)
    let result = try await ChildProcess.run(
      Products.authtui, ["providers", "show", "badflow"],
      environment: ChildProcess.environment(["AUTHTUI_CONFIG_DIR": config.path]))
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "authtui: \(config.file("providers/badflow.json")):1: flows: unknown flow \"pim\"; use "
        + "\"pkce\" (browser), \"device\" (RFC 8628 code) or \"pin\" (Simkl PIN)\n"
        + "authtui: the provider badflow cannot be shown while its file has the problem above; "
        + "fix the file, then run `authtui providers show badflow` again\n")
  }

  @Test func aConfigurationFolderVariableNamingAFileIsSaidToBeOne() async throws {
    let folder = try TemporaryDirectory()
    let file = folder.path + "/config"
    #expect(FileManager.default.createFile(atPath: file, contents: Data()))
    let result = try await ChildProcess.run(
      Products.authtui, ["providers"],
      environment: ChildProcess.environment(["AUTHTUI_CONFIG_DIR": file]))
    #expect(result.status == 0)
    #expect(
      result.stderr
        == "authtui: \(file): the configuration folder is a file, not a folder, so its "
        + "config.json, providers/ and themes/ were not read; point --config or "
        + "AUTHTUI_CONFIG_DIR at the folder that holds them\n")
    #expect(result.stdout.hasPrefix("ID  "))
  }

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

  @Test func printsOneLinePerProviderWithItsStateAndNextStepWordForWord() async throws {
    let config = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: config.file("providers"), withIntermediateDirectories: true)
    try #"{"client_id": "my-app"}"#.write(
      toFile: config.file("providers/simkl.json"), atomically: true, encoding: .utf8)
    try
      #"{"preset": "oidc", "issuer": "https://id.example.com", "client_id": "c", "flows": ["pin"]}"#
      .write(toFile: config.file("providers/work.json"), atomically: true, encoding: .utf8)
    try #"{"client_id": "123.apps.googleusercontent.com"}"#.write(
      toFile: config.file("providers/google.json"), atomically: true, encoding: .utf8)
    let result = try await ChildProcess.run(
      Products.authtui, ["providers"],
      environment: ChildProcess.environment(["AUTHTUI_CONFIG_DIR": config.path]))
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(
      result.stdout == """
        ID          NAME                     STATE             NEXT STEP
        github      GitHub                   no client id      authtui providers show github
        gitlab      GitLab                   no client id      authtui providers show gitlab
        google      Google                   no client secret  authtui providers show google
        hivesigner  Hivesigner               no client id      authtui providers show hivesigner
        microsoft   Microsoft                no client id      authtui providers show microsoft
        muhajir     Muhajir Studio           no client id      authtui providers show muhajir
        simkl       Simkl                    ready             authtui login simkl
        work        OpenID Connect provider  needs a fix       authtui providers show work

        Your own provider, from its issuer URL: `authtui providers add ID --issuer URL`.
        Every flow, with nothing to register: `authtui demo`.

        """)
  }

  @Test func showSaysWhereToRegisterAndWhatToFixWordForWord() async throws {
    let config = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: config.file("providers"), withIntermediateDirectories: true)
    try
      #"{"preset": "oidc", "issuer": "https://id.example.com", "client_id": "c", "flows": ["pin"], "discovery": false}"#
      .write(toFile: config.file("providers/work.json"), atomically: true, encoding: .utf8)
    let environment = ChildProcess.environment(["AUTHTUI_CONFIG_DIR": config.path])
    let simkl = try await ChildProcess.run(
      Products.authtui, ["providers", "show", "simkl"], environment: environment)
    #expect(simkl.status == 0)
    #expect(
      simkl.stdout == """
        simkl: Simkl
          state:     no client id
          file:      built-in preset; settings of yours go in \(config.path)/providers/simkl.json
          flows:     pkce, pin
          client id: none yet
          scopes:    none asked for

        To get a client id, register an application at https://simkl.com/settings/developer/:
          application type: app without a client secret (PKCE)
          redirect URI: http://127.0.0.1:8765/callback
          scopes: none asked for
          note: create an app there with the redirect URI http://127.0.0.1:8765/callback
        Then `authtui providers add simkl --client-id ID`, or choose simkl in `authtui`, which asks for it.

        Endpoints set in the file or preset:
          authorization_endpoint: https://simkl.com/oauth/authorize
          token_endpoint:         https://api.simkl.com/oauth/token
          pin_endpoint:           https://api.simkl.com/oauth/pin

        """)
    let work = try await ChildProcess.run(
      Products.authtui, ["providers", "show", "work"], environment: environment)
    #expect(work.status == 0)
    #expect(
      work.stdout.contains(
        """

        To fix:
          \(config.path)/providers/work.json: flows: the "pin" flow needs pin_endpoint

        """), "\(work.stdout)")
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
