import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui completion bash|zsh|fish`, loaded and run by the real shells: each completes a
/// command, an action, an option value and an account name read from the vault as you type.
@Suite struct CompletionTests {
  /// A shell, when this machine has it (CI installs all three).
  static func shell(_ name: String) -> String? {
    ["/usr/bin/\(name)", "/bin/\(name)"].first { access($0, X_OK) == 0 }
  }

  /// The harness's environment with the built `authtui` first on PATH, as an installed one is.
  static func environment(_ cli: CLIHarness, _ changes: [String: String?] = [:]) -> [String: String]
  {
    var environment = cli.environment
    environment["PATH"] = Products.directory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    for (name, value) in changes { environment[name] = value }
    return environment
  }

  /// What `shell` offers after `line` (the word being completed is the last, maybe empty).
  static func offers(
    _ shell: String, _ line: String, script: String, _ cli: CLIHarness,
    _ changes: [String: String?] = [:]
  ) async throws -> [String] {
    let program: String
    switch (shell as NSString).lastPathComponent {
    case "bash":
      program = """
        source \(script)
        read -ra COMP_WORDS <<<"$1"; [[ $1 == *" " ]] && COMP_WORDS+=("")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _authtui; printf '%s\\n' "${COMPREPLY[@]}"
        """
    case "zsh":
      // compadd, _files and _command_names stand in for the completion system's own.
      program = """
        source \(script)
        compadd() { shift; local word; for word in "$@"; do
          [[ $word == ${words[CURRENT]}* ]] && print -r -- $word; done; }
        _files() { print -r -- FILES; }
        _command_names() { print -r -- PROGRAMS; }
        words=(${(z)1}); [[ $1 == *" " ]] && words+=(""); CURRENT=${#words}; _authtui; true
        """
    default:
      // fish gives every word after the program to $argv: the line is the second.
      program = "source \(script); complete -C \"$argv[2]\" | cut -f1"
    }
    let result = try await ChildProcess.run(
      shell, ["-c", program, "completion-test", line],
      environment: environment(cli, changes), timeout: 60)
    #expect(result.status == 0, "\(shell) \(line): \(result.stderr)")
    return result.stdout.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
  }

  @Test(arguments: ["bash", "zsh", "fish"])
  func completesCommandsActionsValuesAndAccountNames(_ name: String) async throws {
    guard let shell = Self.shell(name) else {
      Issue.record("\(name) is not installed here (.ci/run installs it)")
      return
    }
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let generated = try await cli.run(["completion", name])
    #expect(generated.status == 0)
    let script = try cli.folder.write(generated.stdout, to: "authtui.\(name)")
    let syntax = try await ChildProcess.run(shell, ["-n", script])
    #expect(syntax.status == 0, "\(name) -n: \(syntax.stderr)")

    #expect(try await Self.offers(shell, "authtui tok", script: script, cli) == ["token"])
    #expect(
      try await Self.offers(shell, "authtui agent st", script: script, cli).sorted()
        == ["start", "status", "stop"])
    #expect(
      try await Self.offers(shell, "authtui login --flow d", script: script, cli) == ["device"])
    // Once the provider is named, only the flows it offers.
    #expect(
      try await Self.offers(shell, "authtui login github --flow ", script: script, cli)
        == ["device"])
    #expect(
      try await Self.offers(shell, "authtui login simkl --flow ", script: script, cli).sorted()
        == ["pin", "pkce"])
    #expect(
      try await Self.offers(shell, "authtui --no-color login sandbox --flow p", script: script, cli)
        == ["pkce"])
    // The account name comes from the vault (the harness sets AUTHTUI_PASSPHRASE).
    #expect(
      try await Self.offers(shell, "authtui token sand", script: script, cli)
        == ["sandbox/alice"])
    // After `exec ACCOUNT --`: a program of this machine, then its arguments as files, never
    // authtui's own words.
    let program = try await Self.offers(
      shell, "authtui exec sandbox/alice -- ech", script: script, cli)
    #expect(program.contains(name == "zsh" ? "PROGRAMS" : "echo"), "\(program)")
    let notOurs = try await Self.offers(
      shell, "authtui exec sandbox/alice -- to", script: script, cli)
    #expect(!notOurs.contains("token"), "\(notOurs)")
    let argument = try await Self.offers(
      shell, "authtui exec sandbox/alice -- echo to", script: script, cli)
    #expect(!argument.contains("token"), "\(argument)")
    if name == "zsh" { #expect(argument == ["FILES"]) }
    #expect(
      try await Self.offers(shell, "authtui exec sandbox/alice -- echo --v", script: script, cli)
        .allSatisfy { !$0.hasPrefix("--v") })
    await cli.stop()
  }

  /// bash inserts each candidate as it is: a file or an account with a space in its name was
  /// inserted as two words. Files are offered as they are with `compopt -o filenames`, for
  /// readline to quote; accounts `printf %q`-quoted, or as they are after an opening quote.
  @Test func bashQuotesAccountsAndFilesWithSpaces() async throws {
    guard let bash = Self.shell("bash") else {
      Issue.record("bash is not installed here (.ci/run installs it)")
      return
    }
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox", as: "bob", ["--label", "bob smith"])
    let generated = try await cli.run(["completion", "bash"])
    #expect(generated.status == 0)
    let script = try cli.folder.write(generated.stdout, to: "authtui.bash")
    let files = cli.folder.file("files")
    try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
    for name in ["my file.env", "other.env"] {
      _ = try cli.folder.write("", to: "files/" + name)
    }
    // The words exactly as typed (COMP_WORDS keeps quotes and backslashes), the last being
    // completed; what bash would insert, one per line, then the options `compopt` was given.
    func offers(_ words: String...) async throws -> [String] {
      let program = """
        source \(script); cd "$1"
        compopt() { options="$*"; }
        COMP_WORDS=("${@:2}"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _authtui
        printf '%s\\n' "${COMPREPLY[@]}" "compopt: $options"
        """
      let result = try await ChildProcess.run(
        bash, ["-c", program, "completion-test", files] + words,
        environment: Self.environment(cli), timeout: 60)
      #expect(result.status == 0, "\(words): \(result.stderr)")
      return result.stdout.split(separator: "\n").map(String.init)
    }

    #expect(
      try await offers("authtui", "token", "sandbox/b") == [#"sandbox/bob\ smith"#, "compopt: "])
    #expect(
      try await offers("authtui", "token", #"sandbox/bob\ s"#) == [
        #"sandbox/bob\ smith"#, "compopt: ",
      ])
    // After an opening quote readline closes it: the name goes in as it is.
    #expect(
      try await offers("authtui", "token", "'sandbox/bob s") == ["sandbox/bob smith", "compopt: "])
    #expect(try await offers("authtui", "token", "sandbox/x") == ["compopt: "])
    for typed in ["my", #"my\ f"#, #""my f"#] {
      #expect(
        try await offers("authtui", "export", "sandbox", "--env-file", typed)
          == ["my file.env", "compopt: -o filenames"], "\(typed)")
    }
    #expect(
      try await offers("authtui", "login", "--flow", "d") == ["device", "compopt: "])
    await cli.stop()
  }

  @Test func namesAccountsFromTheAgentOrAPassphraseVariableAndNeverAsks() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let unlocked = try await cli.run(["completion", "--words", "accounts"])
    #expect(unlocked.status == 0)
    #expect(unlocked.stdout == "sandbox/alice\n")
    // No agent and no passphrase variable: nothing, at once, and no question asked.
    let noSecret: [String: String?] = ["AUTHTUI_PASSPHRASE": nil]
    let silent = try await cli.run(["completion", "--words", "accounts"], noSecret)
    #expect(silent.status == 0)
    #expect(silent.stdout.isEmpty)
    #expect(silent.stderr.isEmpty)
    // Nor is a passphrase command run: it may ask (pinentry, `pass`) at every TAB.
    let asked = cli.folder.file("asked")
    let command: [String: String?] = [
      "AUTHTUI_PASSPHRASE": nil,
      "AUTHTUI_PASSPHRASE_COMMAND": "touch '\(asked)'; echo '\(SandboxWorkspace.passphrase)'",
    ]
    let uncommanded = try await cli.run(["completion", "--words", "accounts"], command)
    #expect(uncommanded.status == 0)
    #expect(uncommanded.stdout.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: asked))
    let agent = try await AgentProcess.start(cli)
    let viaAgent = try await cli.run(["completion", "--words", "accounts"], noSecret)
    #expect(viaAgent.stdout == "sandbox/alice\n")
    #expect(await agent.stop().status == 0)
    let providers = try await cli.run(["completion", "--words", "providers"], noSecret)
    #expect(providers.stdout.split(separator: "\n").contains("sandbox"))
    // The one order: completion names the providers as `authtui providers` lists them.
    let listed = try await cli.run(["providers", "--json"], noSecret)
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    #expect(
      providers.stdout.split(separator: "\n").map(String.init)
        == rows.compactMap { $0["id"] as? String })
    let flows = try await cli.run(["completion", "--words", "flows:github"], noSecret)
    #expect(flows.stdout == "device\n")
    let unknown = try await cli.run(["completion", "--words", "flows:nothing"], noSecret)
    #expect(unknown.status == 0 && unknown.stdout.isEmpty)
    let wrong = try await cli.run(["completion", "tcsh"])
    #expect(wrong.status == 2)
    #expect(wrong.stderr.contains("no completion script for 'tcsh'"))
    await cli.stop()
  }
}
