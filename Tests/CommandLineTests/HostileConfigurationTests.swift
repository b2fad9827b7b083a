import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Broken or hostile files in the configuration folder, through the built binary: a command
/// reads only the files it needs, and nothing there can make it hang.
@Suite struct HostileConfigurationTests {
  /// `{"k0": 0, "k1": 0, …}` with `count` unknown members.
  static func unknownKeys(_ count: Int) -> String {
    "{" + (0..<count).map { "\"k\($0)\": 0" }.joined(separator: ",\n") + "}"
  }

  @Test func tokenReadsOnlyItsOwnProviderAndProvidersNamesEveryBrokenFile() async throws {
    let cli = try await CLIHarness.start()
    #expect(try await cli.login("sandbox").status == 0)
    let providers = cli.workspace.configPath + "/providers"
    func path(_ name: String) -> String { providers + "/" + name }
    // As messages show them: HOME is the workspace folder.
    func shown(_ name: String) -> String { "~/config/providers/" + name }
    try Self.unknownKeys(100_000).write(
      toFile: path("huge.json"), atomically: true, encoding: .utf8)
    try Self.unknownKeys(20_000).write(
      toFile: path("noisy.json"), atomically: true, encoding: .utf8)
    #expect(mkfifo(path("pipe.json"), 0o600) == 0)
    try FileManager.default.createDirectory(
      atPath: path("x.json"), withIntermediateDirectories: false)
    #expect(symlink(path("loop.json"), path("loop.json")) == 0)
    #expect(mkfifo(cli.workspace.configPath + "/config.json", 0o600) == 0)
    let watch = try FileOpenWatch([
      path("huge.json"), path("noisy.json"), path("pipe.json"),
      cli.workspace.configPath + "/config.json",
    ])

    let token = try await cli.run(["token", "sandbox/alice"])
    #expect(!token.timedOut)
    #expect(token.status == 0, "\(token.stderr)")
    #expect(token.stdout.count > 10)
    #expect(token.stderr == "")
    #expect(watch.openedPaths().isEmpty)

    let listed = try await cli.run(["providers"])
    #expect(!listed.timedOut)
    #expect(listed.status == 0)
    let lines = listed.stderr.split(separator: "\n").map(String.init)
    #expect(
      lines.filter { !$0.contains("noisy.json") } == [
        "authtui: ~/config/config.json: is a FIFO (named pipe), not a file; authtui does not read from pipes: replace it with a regular file",
        "authtui: \(shown("huge.json")): is 1.2 MiB, over the 256 KiB limit for configuration files; check that this is the right file",
        "authtui: \(shown("loop.json")): is a symbolic link that loops back on itself; point it at a real file",
        "authtui: \(shown("pipe.json")): is a FIFO (named pipe), not a file; authtui does not read from pipes: replace it with a regular file",
        "authtui: \(shown("x.json")): is a directory, not a file; remove it or give it a name that does not end in the file's extension",
      ])
    #expect(lines.filter { $0.contains("noisy.json") }.count == 6)
    #expect(
      lines.contains(
        "authtui: \(shown("noisy.json")):1: k0: unknown field (did you mean \"id\"?); the fields are listed in docs/providers.md under \"Provider file fields\""
      ))
    // The control: listing every provider does open the one file it can read.
    #expect(watch.openedPaths() == [path("noisy.json")])

    // A command about the broken provider itself says what is wrong with its file.
    let broken = try await cli.run(["login", "pipe"])
    #expect(broken.status == 1)
    #expect(
      broken.stderr.contains("the provider pipe is not ready: \(shown("pipe.json")): is a FIFO"))
    await cli.stop()
  }

  @Test func themeNamingABrokenFileReportsThatFileAndLine() async throws {
    let config = try TemporaryDirectory()
    let themes = config.file("themes")
    try FileManager.default.createDirectory(atPath: themes, withIntermediateDirectories: true)
    try "[styles]\ntitle = red\ntitel = blue\n".write(
      toFile: themes + "/ocean.theme", atomically: true, encoding: .utf8)
    let result = try await ChildProcess.run(
      Products.authtui, ["--config", config.path, "--theme", "ocean"],
      environment: ChildProcess.environment(["TERM": "xterm", "NO_COLOR": nil]), timeout: 60)
    #expect(result.status == 2)
    #expect(
      result.stderr
        == "authtui: \(themes)/ocean.theme:3: unknown role \"titel\" (did you mean \"title\"? the roles are listed in docs/configuration.md \"Themes and keys\" and in Themes/default.theme)\n"
    )
  }
}
