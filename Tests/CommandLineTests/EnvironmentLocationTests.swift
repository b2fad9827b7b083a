import Foundation
import TestSupport
import Testing

/// Variables that name where authtui keeps things, set to something unusable: each is said
/// for what it is, rather than a vault under `/` or the current folder, "not configured any
/// more" or a `mkdir` that cannot work.
@Suite struct EnvironmentLocationTests {
  static let defaults: [String: String?] = ["AUTHTUI_VAULT": nil, "AUTHTUI_CONFIG_DIR": nil]

  static func homeRefusal(_ shown: String) -> String {
    "authtui: HOME is \(shown); authtui keeps its vault and settings under your home folder, "
      + "so HOME must be its absolute path: set it (export HOME=/home/you), or name both "
      + "places with AUTHTUI_VAULT and AUTHTUI_CONFIG_DIR\n"
  }

  @Test func anEmptyOrRelativeHOMEIsRefusedWhereAPathIsBuiltOnIt() async throws {
    let cli = try await CLIHarness.start()
    for (home, shown) in [("", "empty"), ("rel", "\"rel\", a relative path")] {
      for arguments in [["list"], ["token", "sandbox/alice"], ["vault", "status"]] {
        var changes = Self.defaults
        changes["HOME"] = home
        let result = try await cli.run(arguments, changes)
        #expect(result.status == 1, "\(home) \(arguments): \(result.stderr)")
        #expect(result.stderr == Self.homeRefusal(shown), "\(home) \(arguments)")
      }
    }
    // Where nothing is built on HOME, it is not needed.
    let named = try await cli.run(["vault", "status"], ["HOME": ""])
    #expect(!named.stderr.contains("HOME"), "\(named.stderr)")
    let help = try await cli.run(["help", "token"], ["HOME": "", "AUTHTUI_VAULT": nil])
    #expect(help.status == 0)
    await cli.stop()
  }

  @Test func aRuntimeOrConfigurationFolderVariableNamingAFileIsSaidToBeOne() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let file = cli.folder.file("afile")
    #expect(FileManager.default.createFile(atPath: file, contents: Data()))

    let runtime: [String: String?] = ["AUTHTUI_AGENT_SOCKET": nil, "XDG_RUNTIME_DIR": file]
    let refusal =
      "the agent's socket \(file)/authtui/agent.sock would be inside \(file), which is a "
      + "file, not a folder; set XDG_RUNTIME_DIR to your runtime folder (or "
      + "AUTHTUI_AGENT_SOCKET to a path in a folder only you can use)"
    let start = try await cli.run(["agent", "start"], runtime)
    #expect(start.status == 1)
    #expect(start.stderr == "authtui: \(refusal)\n")
    let status = try await cli.run(["status"], runtime)
    #expect(status.stdout.contains("agent     cannot be used: \(refusal)"), "\(status.stdout)")

    let config: [String: String?] = ["AUTHTUI_CONFIG_DIR": nil, "XDG_CONFIG_HOME": file]
    let said =
      "the configuration folder cannot exist: \(file) is a file, not a folder, so no "
      + "config.json, providers/ or themes/ were read; point XDG_CONFIG_HOME (or --config or "
      + "AUTHTUI_CONFIG_DIR) at a folder"
    for arguments in [["status"], ["list"]] {
      let result = try await cli.run(arguments, config)
      #expect(result.stderr.contains(said), "\(arguments): \(result.stderr)")
    }
    await cli.stop()
  }
}
