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
      rows.map { $0["id"] as? String } == ["hivesigner", "microsoft", "muhajir", "simkl"])
    let simkl = rows[3]
    #expect(simkl["client_id_configured"] as? Bool == true)
    #expect(simkl["usable"] as? Bool == true)
    #expect(simkl["flows"] as? [String] == ["pkce", "pin"])
    #expect(rows[0]["usable"] as? Bool == false)
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
    #expect(lines.contains("microsoft   Microsoft       pkce, device  missing    built-in"))
    #expect(
      result.stdout.contains("then add \"client_id\": \"…\" to \(config.path)/providers/simkl.json")
    )
    let demo =
      "\nNo client id yet? `authtui` asks for it when you choose the provider; "
      + "`authtui demo` tries every flow first, with nothing to register.\n"
    #expect(result.stdout.hasSuffix(demo))
  }
}
