import AuthCore
import Foundation
import JSON
import Providers
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct ProviderCatalogTests {
  let folder: TemporaryDirectory
  let location: ConfigurationLocation

  init() throws {
    folder = try TemporaryDirectory()
    location = ConfigurationLocation(directory: URL(fileURLWithPath: folder.path))
    try FileManager.default.createDirectory(
      at: location.providersDirectory, withIntermediateDirectories: true)
  }

  /// The providers folder's path, as the catalog's messages name it.
  var dir: String { location.providersDirectory.path }

  func write(_ name: String, _ text: String) throws {
    try text.write(
      to: location.providersDirectory.appendingPathComponent(name), atomically: true,
      encoding: .utf8)
  }

  /// The first problem the catalog reports of provider `id`, as it is shown.
  func firstProblem(of id: ProviderID) throws -> String {
    let entry = try #require(ProviderCatalog.load(from: location).entry(id))
    return try #require(entry.problems.first).description
  }

  @Test func loadsEveryBuiltInPresetWithoutProblemsButItsMissingClientID() {
    #expect(
      Set(ProviderCatalog.presets.keys) == [
        "github", "gitlab", "google", "hivesigner", "microsoft", "muhajir", "oidc", "rfc8628",
        "simkl",
      ])
    let catalog = ProviderCatalog.load(from: location)
    #expect(
      catalog.entries.map(\.id) == [
        "github", "gitlab", "google", "hivesigner", "microsoft", "muhajir", "simkl",
      ])
    #expect(catalog.skippedFiles.isEmpty)
    for entry in catalog.entries {
      #expect(entry.problems.map(\.field) == ["client_id"])
      #expect(entry.configuration == nil)
      #expect(!entry.hasClientID)
    }
  }

  @Test func tellsWhereToRegisterWhenAPresetHasNoClientID() throws {
    let message = try firstProblem(of: "simkl")
    #expect(
      message.hasPrefix(
        "built-in preset simkl: client_id: no client_id: register an application at https://simkl.com/settings/developer/"
      ))
    #expect(message.contains("http://127.0.0.1:8765/callback"))
    #expect(
      message.hasSuffix(
        "then run `authtui providers add simkl --client-id ID` (or add \"client_id\": \"…\" "
          + "to \(location.providersDirectory.path)/simkl.json)"))
  }

  @Test func completesAPresetFromAUserFileHoldingOnlyTheClientID() throws {
    try write("simkl.json", #"{ "client_id": "my-simkl-app" }"#)
    let catalog = ProviderCatalog.load(from: location)
    let simkl = try #require(catalog.entry("simkl"))
    #expect(simkl.problems.isEmpty)
    #expect(
      simkl.origin
        == .fileOverPreset(file: location.providersDirectory.path + "/simkl.json", preset: "simkl"))
    let configuration = try #require(simkl.configuration)
    #expect(configuration.clientID == "my-simkl-app")
    #expect(configuration.flows == [.pkce, .pin])
    #expect(configuration.redirectPort == 8765)
    #expect(configuration.tokenRequestEncoding == .json)
    #expect(configuration.extraRequestParametersLocation == .query)
    #expect(
      configuration.extraRequestParameters == [
        "client_id": "my-simkl-app", "app-name": "authtui", "app-version": AuthTUIVersion.current,
      ])
    #expect(configuration.pinEndpoint?.absoluteString == "https://api.simkl.com/oauth/pin")
  }

  @Test func mergesParameterMapsKeyByKeyAndLetsTheUserFileWin() throws {
    try write(
      "tv.json",
      #"{ "preset": "simkl", "id": "tv", "client_id": "c", "extra_request_params": {"app-name": "mytv"}, "redirect_port": 9000 }"#
    )
    let configuration = try #require(
      ProviderCatalog.load(from: location).entry("tv")?.configuration)
    #expect(configuration.extraRequestParameters["app-name"] == "mytv")
    #expect(configuration.extraRequestParameters["client_id"] == "c")
    #expect(configuration.redirectPort == 9000)
    #expect(ProviderCatalog.load(from: location).entry("simkl")?.hasClientID == false)
  }

  @Test func acceptsAnyOpenIDConnectIssuerAndLeavesTheEndpointsToDiscovery() throws {
    try write(
      "work.json", #"{ "preset": "oidc", "issuer": "https://id.example.com", "client_id": "abc" }"#)
    let work = try #require(ProviderCatalog.load(from: location).entry("work"))
    #expect(work.problems.isEmpty)
    #expect(work.needsDiscovery)
    #expect(work.flows == [.pkce])
    #expect(work.configuration?.scopes == ["openid", "profile", "email", "offline_access"])
  }

  @Test func acceptsAnyDeviceFlowProviderGivenItsEndpoints() throws {
    try write(
      "tv-box.json",
      #"{ "client_id": "x", "device_authorization_endpoint": "https://tv.example/device", "token_endpoint": "https://tv.example/token" }"#
    )
    let entry = try #require(ProviderCatalog.load(from: location).entry("tv-box"))
    #expect(entry.flows == [.device])
    #expect(entry.configuration != nil)
    #expect(!entry.needsDiscovery)
  }

  @Test func allowsPlainHTTPOnlyOnLoopback() throws {
    try write(
      "sandbox.json",
      #"{ "id": "sandbox", "client_id": "c", "authorization_endpoint": "http://127.0.0.1:9/a", "token_endpoint": "http://127.0.0.1:9/t" }"#
    )
    #expect(ProviderCatalog.load(from: location).entry("sandbox")?.configuration != nil)
  }

  @Test func skipsEachMalformedFileWithItsNameLineAndFixWhileTheOthersLoad() throws {
    try write(
      "a-bad-json.json", "{\n  \"id\": \"bad\",\n  \"client_id\": \"x\"\n  \"flows\": [\"pkce\"]\n}"
    )
    try write(
      "b-unknown-flow.json",
      "{\n  \"id\": \"flowy\", \"client_id\": \"x\",\n  \"flows\": [\"pkce\", \"implicit\"]\n}")
    try write(
      "c-insecure.json",
      "{ \"id\": \"plain\", \"client_id\": \"x\",\n\n  \"token_endpoint\": \"http://id.example.com/token\",\n  \"authorization_endpoint\": \"https://id.example.com/a\" }"
    )
    try write("noclient.json", #"{ "id": "noclient", "issuer": "https://id.example.com" }"#)
    try write("good.json", #"{ "issuer": "https://good.example", "client_id": "fine" }"#)
    let catalog = ProviderCatalog.load(from: location)
    #expect(
      catalog.skippedFiles.map(\.description) == [
        "\(dir)/a-bad-json.json:4: not valid JSON: expected ',' or '}' after the value of \"client_id\" (a missing comma?)",
        "\(dir)/b-unknown-flow.json:3: flows: unknown flow \"implicit\"; use \"pkce\" (browser), \"device\" (RFC 8628 code) or \"pin\" (Simkl PIN)",
        "\(dir)/c-insecure.json:3: token_endpoint: \"http://id.example.com/token\" is not allowed: endpoints must use https (plain http only on 127.0.0.1 or localhost, this machine); change it to https://…",
      ])
    let noClient = try #require(catalog.entry("noclient"))
    #expect(noClient.configuration == nil)
    #expect(
      noClient.problems.map(\.description) == [
        "\(dir)/noclient.json: client_id: no client_id: ask the provider for a public (PKCE) client id, then add \"client_id\": \"…\" to \(dir)/noclient.json"
      ])
    #expect(catalog.entry("good")?.configuration?.clientID == "fine")
    #expect(catalog.entry("simkl") != nil)
  }

  @Test func suggestsTheFieldAMisspeltNameWasMeantToBe() throws {
    try write(
      "typo.json",
      "{ \"id\": \"typo\",\n \"client_id\": \"x\", \"tokn_endpoint\": \"https://x/t\" }")
    let problem = try #require(ProviderCatalog.load(from: location).skippedFiles.first)
    #expect(problem.line == 2)
    #expect(problem.field == "tokn_endpoint")
    #expect(problem.message.hasPrefix("unknown field (did you mean \"token_endpoint\"?)"))
  }

  @Test func aMisspeltFieldOfIdentityIsNamedWithTheFieldsIdentityTakes() throws {
    try write(
      "who.json",
      """
      { "id": "who", "client_id": "x", "authorization_endpoint": "https://x/a",
        "token_endpoint": "https://x/t", "user_agnet": "me",
        "identity": {"source": "userinfo", "labl": ["name"], "label": ["login"]} }
      """)
    let problems = ProviderCatalog.load(from: location).skippedFiles
    #expect(problems.map(\.field) == ["user_agnet", "identity.labl"])
    #expect(
      problems.first?.message.hasPrefix("unknown field (did you mean \"user_agent\"?)") == true)
    #expect(
      problems.last?.message
        == "unknown field (did you mean \"label\"?); identity takes source, endpoint, label, "
        + "subject, email, name, forbidden_scope_hint, tenant")
  }

  @Test func reportsEveryWrongTypeInAFileAtOnce() throws {
    try write(
      "types.json",
      "{\n\"id\": \"types\",\n\"client_id\": 42,\n\"redirect_port\": 70000,\n\"scopes\": \"openid\",\n\"token_request_encoding\": \"xml\"\n}"
    )
    let problems = ProviderCatalog.load(from: location).skippedFiles
    #expect(
      problems.map(\.field) == ["client_id", "redirect_port", "scopes", "token_request_encoding"])
    #expect(problems.map(\.line) == [3, 4, 5, 6])
    #expect(problems[0].message == "must be a string in double quotes, not a number")
    #expect(problems[1].message == "must be between 1 and 65535, not 70000")
    #expect(problems[3].message == "must be \"form\" or \"json\", not \"xml\"")
  }

  @Test func refusesAnUnknownPresetAndAnIDThatIsNotTheFileName() throws {
    try write("a.json", #"{ "id": "a", "preset": "simkel", "client_id": "x" }"#)
    try write("b.json", #"{ "id": "same", "issuer": "https://x.example", "client_id": "x" }"#)
    try write("same.json", #"{ "id": "same", "issuer": "https://y.example", "client_id": "y" }"#)
    let catalog = ProviderCatalog.load(from: location)
    #expect(
      catalog.skippedFiles.map(\.description) == [
        "\(dir)/a.json: preset: there is no preset \"simkel\"; use one of github, gitlab, google, hivesigner, microsoft, muhajir, oidc, rfc8628, simkl",
        "\(dir)/b.json: id: \"same\" is not the file's name; a provider's file is named after its id: rename the file to same.json, or remove \"id\"",
      ])
    #expect(catalog.entry("same")?.configuration?.issuer == "https://y.example")
    #expect(catalog.entry("b") == nil)
    #expect(catalog.skippedProblems(for: "b").map(\.field) == ["id"])
  }

  @Test func refusesAFlowWhoseEndpointsAreMissing() throws {
    try write("pinless.json", #"{ "id": "pinless", "client_id": "x", "flows": ["pin"] }"#)
    let entry = try #require(ProviderCatalog.load(from: location).entry("pinless"))
    #expect(entry.configuration == nil)
    #expect(entry.problems.map(\.message) == ["the \"pin\" flow needs pin_endpoint"])
  }

  @Test func appliesTheDefaultLoginTimeoutOfConfigJSON() throws {
    try write("w.json", #"{ "issuer": "https://w.example", "client_id": "x" }"#)
    let catalog = ProviderCatalog.load(from: location, defaultLoginTimeout: 120)
    #expect(catalog.entry("w")?.configuration?.loginTimeout == 120)
  }
}

extension ProviderProblem {
  var line: Int? { position?.line }
}

extension ProviderFile {
  /// What `decode` reports about `text`, as printed; empty when it decodes.
  static func problems(in text: String, file: String) -> [String] {
    guard case .failure(let list) = decode(text, file: file) else { return [] }
    return list.problems.map(\.description)
  }
}

/// What a hostile or broken `providers/` costs the commands that do not need the broken file.
@Suite struct ProviderSelectionTests {
  let folder: TemporaryDirectory
  let location: ConfigurationLocation
  var dir: String { location.providersDirectory.path }

  init() throws {
    folder = try TemporaryDirectory()
    location = ConfigurationLocation(directory: URL(fileURLWithPath: folder.path))
    try FileManager.default.createDirectory(
      at: location.providersDirectory, withIntermediateDirectories: true)
  }

  func path(_ name: String) -> String { dir + "/" + name }

  /// `{"k0": 0, "k1": 0, …}` with `count` unknown members.
  static func unknownKeys(_ count: Int) -> String {
    "{" + (0..<count).map { "\"k\($0)\": 0" }.joined(separator: ",\n") + "}"
  }

  @Test func aCatalogOfOneProviderReadsOnlyThatProvidersFile() throws {
    try Self.unknownKeys(100_000).write(
      toFile: path("huge.json"), atomically: true, encoding: .utf8)
    try Self.unknownKeys(20_000).write(
      toFile: path("noisy.json"), atomically: true, encoding: .utf8)
    #expect(mkfifo(path("pipe.json"), 0o600) == 0)
    try #"{"issuer": "https://b.example", "client_id": "b"}"#.write(
      toFile: path("b.json"), atomically: true, encoding: .utf8)
    let watch = try FileOpenWatch([path("huge.json"), path("noisy.json"), path("pipe.json")])

    let one = ProviderCatalog.load(from: location, providers: .only(["b", "simkl"]))
    #expect(one.entries.map(\.id) == ["b", "simkl"])
    #expect(one.entry("b")?.configuration?.clientID == "b")
    #expect(one.skippedFiles.isEmpty)
    #expect(watch.openedPaths().isEmpty)
    #expect(
      one.knownIDs == [
        "b", "github", "gitlab", "google", "hivesigner", "huge", "microsoft", "muhajir", "noisy",
        "pipe", "simkl",
      ])

    // Every file is looked at when every provider is shown; only noisy.json is opened.
    let all = ProviderCatalog.load(from: location)
    #expect(
      all.entries.map(\.id) == [
        "b", "github", "gitlab", "google", "hivesigner", "microsoft", "muhajir", "simkl",
      ])
    #expect(watch.openedPaths() == [path("noisy.json")])
    #expect(
      all.skippedFiles.map(\.description) == [
        "\(path("huge.json")): is 1.2 MiB, over the 256 KiB limit for configuration files; check that this is the right file"
      ]
        + (0..<5).map {
          "\(path("noisy.json")):\($0 + 1): k\($0): unknown field (did you mean \"id\"?); the fields are listed in docs/providers.md under \"Provider file fields\""
        } + [
          "\(path("noisy.json")):6: 19995 more unknown fields after these; the fields are listed in docs/providers.md under \"Provider file fields\"",
          "\(path("pipe.json")): is a FIFO (named pipe), not a file; authtui does not read from pipes: replace it with a regular file",
        ])
    #expect(all.skippedProblems(for: "pipe").count == 1)
  }

  @Test func namesWhatIsNotAProviderFileAsSuch() throws {
    try FileManager.default.createDirectory(
      atPath: path("x.json"), withIntermediateDirectories: false)
    #expect(symlink(path("loop.json"), path("loop.json")) == 0)
    #expect(symlink(path("gone"), path("dangling.json")) == 0)
    let catalog = ProviderCatalog.load(from: location)
    #expect(
      catalog.skippedFiles.map(\.description) == [
        "\(path("dangling.json")): is a symbolic link to \(path("gone")), which does not exist; fix the link or remove it",
        "\(path("loop.json")): is a symbolic link that loops back on itself; point it at a real file",
        "\(path("x.json")): is a directory, not a file; remove it or give it a name that does not end in the file's extension",
      ])
    #expect(
      ProviderCatalog.load(from: location, providers: .only(["x"])).skippedProblems(for: "x")
        .map(\.message) == [catalog.skippedFiles[2].message])
  }

  @Test func refusesDeeplyNestedJSONWithAClearError() throws {
    try String(repeating: "[", count: 200_000).write(
      toFile: path("deep.json"), atomically: true, encoding: .utf8)
    let problems = ProviderCatalog.load(from: location).skippedFiles
    #expect(
      problems.map(\.description) == [
        "\(path("deep.json")):1: not valid JSON: arrays and objects are nested more than 64 deep; a configuration file needs only a few levels"
      ])
  }

  @Test func keepsTheLineOfAFieldUnderALongMemberNameWithoutCopyingTheName() throws {
    // Positions were kept by dotted path, so every value below this 128 KiB name copied it:
    // 60,000 copies, 7 GiB. They are a tree now.
    let name = String(repeating: "n", count: 128 * 1024)
    let elements = Array(repeating: "1", count: 60_000).joined(separator: ",")
    let document = try JSONParser.parse("{\n\"\(name)\":\n[\(elements),\n2]}")
    #expect(document.position(of: "\(name)[60000]") == SourcePosition(line: 4, column: 1))
    #expect(document.position(of: name).line == 3)
  }

  @Test func escapesControlCharactersAndShortensLongNamesInMessages() throws {
    let long = String(repeating: "z", count: 1000)
    #expect(
      ProviderFile.problems(
        in: "{\"a\\u001b[2Jb\": 1, \"\(long)\": 2, \"flows\": [\"\\u202eevil\"]}", file: "f.json")
        == [
          "f.json:1: a\\u{1B}[2Jb: unknown field; the fields are listed in docs/providers.md under \"Provider file fields\"",
          "f.json:1: \(String(repeating: "z", count: 64))…: unknown field; the fields are listed in docs/providers.md under \"Provider file fields\"",
          "f.json:1: flows: unknown flow \"\\u{202E}evil\"; use \"pkce\" (browser), \"device\" (RFC 8628 code) or \"pin\" (Simkl PIN)",
        ])
  }
}

@Suite struct ProviderIdentityTests {
  @Test func givesEachPresetItsIdentitySourceAsData() throws {
    let presets = ProviderCatalog.presets
    #expect(
      presets["simkl"]?.identity?.source
        == .endpoint(try #require(URL(string: "https://api.simkl.com/users/settings"))))
    #expect(presets["simkl"]?.identity?.labelPaths == ["user.name"])
    #expect(presets["hivesigner"]?.identity?.source == .tokenResponse)
    #expect(presets["muhajir"]?.identity?.forbiddenScopeHint == "openid")
    #expect(presets["muhajir"]?.usesDiscovery == false)
  }

  @Test func readsAnIdentityBlockAndReportsItsMistakes() throws {
    let good = ProviderFile.decode(
      #"{"id": "x", "identity": {"source": "userinfo", "label": "nickname"}}"#, file: "x.json")
    #expect(try good.get().identity?.labelPaths == ["nickname"])
    #expect(try good.get().identity?.source == .userinfo)

    #expect(
      ProviderFile.problems(
        in: "{\"id\": \"x\",\n \"identity\": {\"source\": \"endpoint\", \"lable\": [\"a\"]}}",
        file: "x.json") == [
          "x.json:2: identity.source: an \"endpoint\" source needs the URL in \"endpoint\"",
          "x.json:2: identity.lable: unknown field (did you mean \"label\"?); identity takes source, endpoint, label, subject, email, name, forbidden_scope_hint, tenant",
        ])
  }
}

extension ProviderCatalogTests {
  @Test func githubSeparatesScopesWithCommasAndAFileMayNameOneVisibleCharacter() throws {
    try write("github.json", #"{ "client_id": "x" }"#)
    try write(
      "work.json",
      #"{ "preset": "oidc", "issuer": "https://id.example.com", "client_id": "x", "scope_separator": ";" }"#
    )
    try write(
      "bad.json",
      #"{ "preset": "oidc", "issuer": "https://id.example.com", "client_id": "x", "scope_separator": ", " }"#
    )
    let catalog = ProviderCatalog.load(from: location)
    #expect(try #require(catalog.entry("github")?.configuration).scopeSeparator == ",")
    #expect(try #require(catalog.entry("work")?.configuration).scopeSeparator == ";")
    #expect(catalog.entry("bad") == nil)
    #expect(
      catalog.skippedFiles.map(\.description) == [
        "\(dir)/bad.json:1: scope_separator: is one visible ASCII character, for example \",\" (a space is the default)"
      ])
  }
}
