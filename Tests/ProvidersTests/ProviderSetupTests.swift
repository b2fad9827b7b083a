import AuthCore
import Foundation
import JSON
import Providers
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The UI's setup form writing a client id into `providers/ID.json`.
@Suite struct ProviderSetupTests {
  let folder: TemporaryDirectory
  var location: ConfigurationLocation {
    ConfigurationLocation(directory: URL(fileURLWithPath: folder.file("config")))
  }
  var providers: String { folder.file("config/providers") }

  init() throws {
    folder = try TemporaryDirectory()
  }

  func save(_ id: ProviderID, _ clientID: String, port: UInt16? = nil) throws(ProviderSetupError) {
    try ProviderFile.saveSetup(id, clientID: clientID, redirectPort: port, in: location)
  }

  func mode(_ path: String) -> mode_t {
    var status = stat()
    guard stat(path, &status) == 0 else { return 0 }
    return status.st_mode & 0o777
  }

  @Test func writesANewFileOverThePresetWithMode0600AndTheCatalogThenHasTheClientID() throws {
    #expect(ProviderCatalog.load(from: location).entry("simkl")?.setup?.redirectPort == 8765)
    try save("simkl", "  my-app-id \n", port: 8765)
    let path = providers + "/simkl.json"
    #expect(
      try String(contentsOfFile: path, encoding: .utf8)
        == "{\n  \"preset\" : \"simkl\",\n  \"client_id\" : \"my-app-id\"\n}\n")
    #expect(mode(path) == 0o600)
    let entry = try #require(ProviderCatalog.load(from: location).entry("simkl"))
    #expect(entry.file.clientID == "my-app-id")
    #expect(entry.configuration != nil)
    #expect(entry.setup == nil)
    // No temporary file is left beside it.
    #expect(try FileManager.default.contentsOfDirectory(atPath: providers) == ["simkl.json"])
  }

  @Test func keepsEveryFieldOfAnExistingFileInItsPlaceAndChangesOnlyWhatTheFormSays() throws {
    try FileManager.default.createDirectory(atPath: providers, withIntermediateDirectories: true)
    try folder.write(
      """
      {
        "token_endpoint": "http://127.0.0.1:9/hivesigner/api/oauth2/token",
        "preset": "hivesigner",
        "client_id": "old",
        "extra_authorize_params": {"z": "1", "a": "2"},
        "login_timeout": 12.5
      }
      """, to: "config/providers/hivesigner.json")
    chmod(providers + "/hivesigner.json", 0o644)
    try save("hivesigner", "new-app")
    let written = try String(contentsOfFile: providers + "/hivesigner.json", encoding: .utf8)
    #expect(
      written == """
        {
          "token_endpoint" : "http://127.0.0.1:9/hivesigner/api/oauth2/token",
          "preset" : "hivesigner",
          "client_id" : "new-app",
          "extra_authorize_params" : {
            "z" : "1",
            "a" : "2"
          },
          "login_timeout" : 12.5
        }

        """)
    #expect(mode(providers + "/hivesigner.json") == 0o600)
  }

  @Test func writesTheRedirectPortOnlyWhenItDiffersFromThePresetsOrTheFileHasOne() throws {
    try save("muhajir", "app", port: 8765)
    #expect(ProviderCatalog.load(from: location).entry("muhajir")?.file.redirectPort == 8765)
    #expect(
      !(try String(contentsOfFile: providers + "/muhajir.json", encoding: .utf8))
        .contains("redirect_port"))
    try save("muhajir", "app", port: 9876)
    #expect(ProviderCatalog.load(from: location).entry("muhajir")?.file.redirectPort == 9876)
    try save("muhajir", "app", port: 8765)
    #expect(ProviderCatalog.load(from: location).entry("muhajir")?.file.redirectPort == 8765)
    #expect(
      (try String(contentsOfFile: providers + "/muhajir.json", encoding: .utf8))
        .contains("\"redirect_port\" : 8765"))
  }

  @Test func refusesASymlinkAFIFOAndAFolderAndLeavesThemAsTheyAre() throws {
    try FileManager.default.createDirectory(atPath: providers, withIntermediateDirectories: true)
    let target = try folder.write(#"{"client_id": "theirs"}"#, to: "elsewhere.json")
    #expect(symlink(target, providers + "/simkl.json") == 0)
    #expect(mkfifo(providers + "/muhajir.json", 0o600) == 0)
    try FileManager.default.createDirectory(
      atPath: providers + "/hivesigner.json", withIntermediateDirectories: false)
    let cases: [(ProviderID, String)] = [
      ("simkl", "a symbolic link"), ("muhajir", "a FIFO (named pipe)"),
      ("hivesigner", "a folder"),
    ]
    for (id, kind) in cases {
      let error = #expect(throws: ProviderSetupError.self) { try save(id, "app") }
      #expect(error?.description.hasPrefix("\(providers)/\(id).json: it is \(kind);") == true)
    }
    #expect(try String(contentsOfFile: target, encoding: .utf8) == #"{"client_id": "theirs"}"#)
    var status = stat()
    #expect(lstat(providers + "/simkl.json", &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
    #expect(lstat(providers + "/muhajir.json", &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
  }

  @Test func refusesAFileThatIsNotJSONAndSaysWhere() throws {
    try FileManager.default.createDirectory(atPath: providers, withIntermediateDirectories: true)
    try folder.write("{\n  \"client_id\": \"x\",\n}\n", to: "config/providers/simkl.json")
    do {
      try save("simkl", "app")
      Issue.record("a broken file was overwritten")
    } catch {
      #expect(error.description.hasPrefix("\(providers)/simkl.json: line 3"))
      #expect(error.description.hasSuffix("fix the file (or remove it), then try again"))
    }
    #expect(
      try String(contentsOfFile: providers + "/simkl.json", encoding: .utf8)
        == "{\n  \"client_id\": \"x\",\n}\n")
  }

  @Test func aFolderThatCannotBeMadeIsSaidNotThrownAtTheUser() throws {
    // A file where the providers folder should be (root writes into any folder, but no one
    // makes a folder through a file).
    try FileManager.default.createDirectory(
      atPath: folder.file("config"), withIntermediateDirectories: true)
    try folder.write("not a folder", to: "config/providers")
    let error = #expect(throws: ProviderSetupError.self) { try save("simkl", "app") }
    #expect(
      error?.description.hasPrefix("\(providers)/simkl.json: its folder cannot be created (")
        == true)
    #expect(try String(contentsOfFile: providers, encoding: .utf8) == "not a folder")
  }

  @Test func checksTheClientIDAndThePortAsTyped() throws {
    #expect(try ProviderSetup.checkedClientID(" abc-123\t") == "abc-123")
    #expect(throws: ProviderSetupError.emptyClientID) { try ProviderSetup.checkedClientID("  ") }
    #expect(throws: ProviderSetupError.malformedClientID) {
      try ProviderSetup.checkedClientID("abc def")
    }
    #expect(try ProviderSetup.checkedClientID(String(repeating: "a", count: 512)).count == 512)
    #expect(throws: ProviderSetupError.clientIDTooLong(characters: 513)) {
      try ProviderSetup.checkedClientID(String(repeating: "a", count: 513))
    }
    #expect(
      ProviderSetupError.clientIDTooLong(characters: 5000).description
        == "a client id has at most 512 characters, this one 5000; paste just the id")
    #expect(
      ProviderSetupError.emptyClientID.description
        == "the client id is empty: give the one the provider gave your application")
    #expect(try ProviderSetup.checkedPort("8765") == 8765)
    for text in ["80", "65536", "", "87x", "-1"] {
      #expect(throws: ProviderSetupError.badRedirectPort(text)) {
        try ProviderSetup.checkedPort(text)
      }
    }
    #expect(
      ProviderSetupError.badRedirectPort("80").description
        == "\"80\" is not a port from 1024 to 65535; type the port of the redirect URI you "
        + "registered")
  }

  @Test func aPresetWithoutAClientIDOffersItsRegistrationAndAFixedPort() throws {
    let catalog = ProviderCatalog.load(from: location)
    let simkl = try #require(catalog.entry("simkl")?.setup)
    #expect(simkl.registrationURL == "https://simkl.com/settings/developer/")
    #expect(simkl.registrationNote?.contains("http://127.0.0.1:8765/callback") == true)
    #expect(
      simkl.file == ConfigurationLocation.display(URL(fileURLWithPath: providers + "/simkl.json")))
    #expect(catalog.entry("hivesigner")?.setup?.redirectPort == nil)
  }

  @Test func theRegistrationGuideComesFromThePresetAndAUserFileOverridesIt() throws {
    let catalog = ProviderCatalog.load(from: location)
    let simkl = try #require(catalog.entry("simkl")).registration
    #expect(simkl.applicationType == "app without a client secret (PKCE)")
    #expect(simkl.redirectURI == "http://127.0.0.1:8765/callback" && !simkl.anyPort)
    #expect(simkl.scopes.isEmpty)
    #expect(simkl.facts.map(\.label) == ["application type", "redirect URI", "scopes"])
    #expect(simkl.facts.last?.value == "none asked for")
    let hive = try #require(catalog.entry("hivesigner")).registration
    #expect(hive.redirectURI == "http://127.0.0.1/callback" && hive.anyPort)
    #expect(hive.facts[1].value == "http://127.0.0.1/callback (any port)")
    #expect(hive.scopes == ["login"])

    // A user file's application_type, port and post-logout registration win over the preset's.
    try FileManager.default.createDirectory(atPath: providers, withIntermediateDirectories: true)
    try #"""
    {"preset": "muhajir", "application_type": "native app", "redirect_port": 9100,
     "redirect_path": "/done", "post_logout_uses_redirect_uri": true}
    """#.write(toFile: providers + "/muhajir.json", atomically: true, encoding: .utf8)
    let muhajir = try #require(ProviderCatalog.load(from: location).entry("muhajir"))
    #expect(muhajir.problems.allSatisfy { $0.field != "application_type" })
    #expect(
      muhajir.registration.facts.map { "\($0.label): \($0.value)" } == [
        "application type: native app", "redirect URI: http://127.0.0.1:9100/done",
        "post-logout redirect URI: http://127.0.0.1:9100/done",
        "scopes: openid profile email offline_access",
      ])
    #expect(muhajir.setup?.guide == muhajir.registration)
    #expect(
      muhajir.configuration == nil || muhajir.configuration?.postLogoutUsesRedirectURI == true)
    // A type that is not a string is reported like any other field.
    try #"{"preset": "muhajir", "application_type": 3}"#.write(
      toFile: providers + "/muhajir.json", atomically: true, encoding: .utf8)
    let broken = ProviderCatalog.load(from: location)
    #expect(
      (broken.skippedFiles + broken.allProblems).contains { $0.field == "application_type" })
  }

  @Test func googlesSetupAsksForTheSecretAndWritesItSoTheCatalogCanUseIt() throws {
    let catalog = ProviderCatalog.load(from: location)
    let setup = try #require(catalog.entry("google")?.setup)
    #expect(setup.asksClientSecret)
    #expect(setup.clientID == nil)
    // Simkl takes no secret: its form asks for none.
    #expect(catalog.entry("simkl")?.setup?.asksClientSecret == false)

    try ProviderFile.saveSetup(
      "google", clientID: "123.apps.googleusercontent.com", redirectPort: nil,
      clientSecret: ClientSecret(" GOCSPX-abc\n"), in: location)
    let path = providers + "/google.json"
    #expect(
      try String(contentsOfFile: path, encoding: .utf8)
        == "{\n  \"preset\" : \"google\",\n  \"client_id\" : \"123.apps.googleusercontent.com\",\n"
        + "  \"client_secret\" : \"GOCSPX-abc\"\n}\n")
    #expect(mode(path) == 0o600)
    let entry = try #require(ProviderCatalog.load(from: location).entry("google"))
    #expect(entry.problems.isEmpty)
    #expect(entry.setup == nil)
    #expect(entry.configuration?.clientSecret == ClientSecret("GOCSPX-abc"))
  }

  @Test func aGoogleFileWithoutItsSecretIsSetUpFromItsClientIDAndABadSecretIsRefused() throws {
    try FileManager.default.createDirectory(
      atPath: providers, withIntermediateDirectories: true)
    let written = #"{ "client_id": "123.apps.googleusercontent.com" }"#
    try Data(written.utf8).write(to: URL(fileURLWithPath: providers + "/google.json"))
    let setup = try #require(ProviderCatalog.load(from: location).entry("google")?.setup)
    #expect(setup.asksClientSecret)
    #expect(setup.clientID == "123.apps.googleusercontent.com")
    for (typed, refusal) in [
      ("", ProviderSetupError.emptyClientSecret), ("GOCSPX a", .malformedClientSecret),
      (String(repeating: "s", count: 600), .clientSecretTooLong(characters: 600)),
    ] {
      #expect(throws: refusal) {
        try ProviderFile.saveSetup(
          "google", clientID: "123", redirectPort: nil, clientSecret: ClientSecret(typed),
          in: location)
      }
    }
    // Nothing was written: the file is as it was.
    #expect(try String(contentsOfFile: providers + "/google.json", encoding: .utf8) == written)
  }
}
