// swift-tools-version: 6.0
// authtui: a keyboard-driven terminal account manager for OAuth public clients.
// Module layout and import rules: see docs/architecture.md and scripts/check-imports.
import Foundation
import PackageDescription

// The front of `authtui` is linked statically (it starts in about a millisecond). Sanitizer
// runtimes cannot be linked into a static executable, so scripts/test-sanitized sets
// AUTHTUI_DYNAMIC_FRONT=1 and gets an ordinary dynamic front.
let frontLinking: [String] =
  ProcessInfo.processInfo.environment["AUTHTUI_DYNAMIC_FRONT"] == nil
  ? ["-static-executable"] : []

let package = Package(
  name: "authtui",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "authtui", targets: ["authtui"]),
    .executable(name: "authtui-core", targets: ["authtui-core"]),
    .executable(name: "authtui-sandbox", targets: ["authtui-sandbox"]),
  ],
  targets: [
    // C libraries, each imported by exactly one Swift target.
    .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
    .systemLibrary(name: "CNcursesW", providers: [.apt(["libncurses-dev"])]),
    // Process controls Swift cannot call (variadic prctl), for Hardening.
    .systemLibrary(name: "CProcessControl"),
    // The kernel's key system calls (add_key, keyctl), which glibc does not wrap, for System.
    .systemLibrary(name: "CKeyring"),

    // Swift modules, lowest first.
    .target(name: "Isolation"),
    // No core dumps, no tracing, no crash handler reading memory: first thing in every process.
    .target(name: "Hardening", dependencies: ["CProcessControl"]),
    // Where the vault file is: shared by the vault and the small front of `authtui`.
    .target(name: "Locations"),
    .target(name: "Crypto", dependencies: ["COpenSSL"]),
    .target(name: "Vault", dependencies: ["Crypto", "CSQLite", "Isolation", "Locations"]),
    .target(name: "Spelling"),
    // QR codes (byte mode, levels L and M, versions 1-10) for device and PIN sign-ins.
    .target(name: "QRCode"),
    // The one JSON reader (line and column in its errors) and the one ordered writer.
    .target(name: "JSON", dependencies: ["Spelling"]),
    // The one poll(2) socket server, the HTTP/1.1 server and parser, the raw loopback client.
    .target(name: "Loopback", dependencies: ["CProcessControl", "Isolation", "Spelling"]),
    .target(name: "Terminal", dependencies: ["Spelling"]),
    .target(name: "TerminalCurses", dependencies: ["Terminal", "Spelling", "CNcursesW"]),
    .target(
      name: "Theme", dependencies: ["Terminal", "Spelling"], plugins: ["EmbedDataFilesPlugin"]),
    // The facts of an account everything above the vault shares: its name, provider id, status
    // and summary, with their JSON forms (the agent's answers, `list --json`).
    .target(name: "AccountFacts", dependencies: ["JSON", "Spelling"]),
    .target(
      name: "AuthCore", dependencies: ["AccountFacts", "Crypto", "JSON", "Loopback", "Spelling"]),
    .target(
      name: "Providers", dependencies: ["AuthCore", "JSON", "Locations", "Spelling"], exclude: ["Presets"],
      plugins: ["EmbedDataFilesPlugin"]),
    .target(
      name: "Sandbox", dependencies: ["AuthCore", "Crypto", "Isolation", "JSON", "Loopback"]),
    .target(
      name: "Accounts",
      dependencies: [
        "AccountFacts", "AuthCore", "Crypto", "Locations", "Providers", "Spelling", "Vault",
      ]),
    // What the small front of `authtui` needs to answer `token`, without Foundation: the agent's
    // socket and the blocking client, the `token` and `proof` requests and their answers.
    .target(name: "AgentWire", dependencies: ["JSON", "Locations", "Spelling"]),
    // The agent's one-line JSON wire protocol (fuzzed too), every request and answer.
    .target(
      name: "AgentProtocol", dependencies: ["AccountFacts", "AgentWire", "JSON", "Locations"]),
    // The agent: its service and listener, and the client of the full program.
    .target(
      name: "Agent",
      dependencies: [
        "Accounts", "AgentProtocol", "AuthCore", "Isolation", "JSON", "Loopback", "Vault",
      ]),
    // The world outside: spawning processes, the browser, the clipboard, passphrases, signals.
    .target(
      name: "System",
      dependencies: [
        "AuthCore", "CKeyring", "Crypto", "Hardening", "Isolation", "Spelling", "Terminal",
        "Vault",
      ]),
    .target(
      name: "App",
      dependencies: [
        "AccountFacts", "Accounts", "Terminal", "Theme", "AuthCore", "Providers", "QRCode",
        "Spelling", "Vault",
      ]),

    // The UI's environment: the vault's start-up and unlock policy, the effects done against
    // the account book, the provider files and the browser; the executable only builds it.
    .target(
      name: "Session",
      dependencies: [
        "Accounts", "App", "AuthCore", "Crypto", "Isolation", "Providers", "System", "Terminal",
        "Theme", "Vault",
      ]),

    // Build tool: compiles data files (Themes/*.theme, provider presets) into their modules.
    .executableTarget(name: "DataFileEmbedder"),
    .plugin(
      name: "EmbedDataFilesPlugin", capability: .buildTool(), dependencies: ["DataFileEmbedder"],
      path: "Sources/EmbedDataFilesPlugin"),

    // The command line: the command table, typed options, help, exit codes, and the commands.
    .target(
      name: "Commands",
      dependencies: [
        "Accounts", "Agent", "AgentProtocol", "AuthCore", "Crypto", "Isolation", "JSON",
        "Providers", "QRCode", "Spelling", "System", "Terminal", "Vault",
      ]),

    // Composition roots. `authtui` is a small statically linked front: it answers `token` from
    // a running agent in about a millisecond, and `exec`s `authtui-core` (the full program,
    // installed beside it or in ../libexec/authtui) for everything else. Its modules (and
    // those they use: AgentWire, Hardening, JSON, Locations, Spelling) import no Foundation at
    // all (scripts/check-imports), so the static link holds the Swift runtime alone, without
    // FoundationEssentials' code, metadata and start-up: no `Date`, `URL`, `TimeInterval` or
    // `FileManager` there (see AgentWire's UnixTime and ProofTarget.plainURL).
    .executableTarget(
      name: "authtui", dependencies: ["AgentWire", "Hardening", "Locations", "Spelling"],
      path: "Sources/Front",
      // At compile time too: the static Foundation module's link entries (CoreFoundation, ICU)
      // come with the imports of this target.
      swiftSettings: [.unsafeFlags(frontLinking)],
      linkerSettings: [.unsafeFlags(frontLinking)]),
    .executableTarget(
      name: "authtui-core",
      dependencies: [
        "Accounts", "AgentProtocol", "App", "AuthCore", "Commands", "Crypto", "Hardening",
        "Isolation", "Providers", "Sandbox", "Session", "System", "Terminal", "TerminalCurses",
        "Theme", "Vault",
      ],
      path: "Sources/authtui"),
    .executableTarget(name: "authtui-sandbox", dependencies: ["Sandbox"]),

    // Tests mirror the source folders.
    .testTarget(name: "CryptoTests", dependencies: ["Crypto"]),
    .testTarget(name: "JSONTests", dependencies: ["JSON"]),
    .testTarget(name: "QRCodeTests", dependencies: ["QRCode", "TestSupport"]),
    .testTarget(
      name: "LoopbackTests",
      dependencies: ["AgentWire", "Loopback", "LoopbackPoolProbe", "TestSupport"]),
    // A child process that holds every thread of its own cooperative pool and asks a loopback
    // server meanwhile: in the test process that would stall every other test.
    .executableTarget(
      name: "LoopbackPoolProbe", dependencies: ["Isolation", "Loopback"], path: "Tests/PoolProbe"),
    .testTarget(
      name: "AuthCoreTests",
      dependencies: [
        "Accounts", "AuthCore", "Commands", "Crypto", "JSON", "Loopback", "Providers", "Sandbox",
        "TestSupport", "Vault",
      ]),
    .testTarget(
      name: "ProvidersTests", dependencies: ["Providers", "AuthCore", "JSON", "TestSupport"]),
    .testTarget(name: "TerminalTests", dependencies: ["Terminal", "Spelling"]),
    .testTarget(
      name: "ThemeTests", dependencies: ["Theme", "Terminal", "Providers", "TestSupport"]),
    .testTarget(
      name: "AppTests",
      dependencies: [
        "Accounts", "App", "AuthCore", "Isolation", "JSON", "Providers", "Spelling", "Terminal",
        "Theme",
        "TestSupport",
        "Vault",
      ],
      exclude: ["Snapshots"]),
    .testTarget(
      name: "TerminalCursesTests",
      dependencies: [
        "TerminalCurses", "Terminal", "Spelling", "Theme", "TestSupport", "TerminalFixture",
      ]),
    // Draws a known screen with the real curses back end, for the tmux tests.
    .executableTarget(
      name: "TerminalFixture", dependencies: ["Terminal", "TerminalCurses", "Theme"],
      path: "Tests/TerminalFixture"),
    .testTarget(
      name: "AccountsTests",
      dependencies: [
        "AccountFacts", "Accounts", "AuthCore", "Crypto", "Providers", "Sandbox", "TestSupport",
        "Vault",
      ]),
    .target(
      name: "TestSupport",
      dependencies: [
        "AuthCore", "Crypto", "Hardening", "Isolation", "Loopback", "Sandbox", "Vault",
      ],
      path: "Tests/TestSupport"),
    .testTarget(
      name: "SandboxTests",
      dependencies: [
        "Sandbox", "AuthCore", "Crypto", "Loopback", "TestSupport", "authtui-sandbox",
        "authtui-test-browser",
      ]),
    // A stand-in for a person with a browser (`BROWSER=authtui-test-browser`), for tests only.
    .executableTarget(
      name: "authtui-test-browser", dependencies: ["Sandbox"], path: "Tests/TestBrowser"),
    // authtui in tmux against authtui-sandbox, with the test browser as BROWSER.
    .testTarget(
      name: "InteractiveUITests",
      dependencies: [
        "authtui-core", "authtui-sandbox", "authtui-test-browser", "Crypto", "JSON", "QRCode",
        "Sandbox", "TestSupport", "Vault",
      ]),
    .testTarget(name: "SystemTests", dependencies: ["System", "Vault"]),
    .testTarget(name: "IsolationTests", dependencies: ["Isolation"]),
    .testTarget(
      name: "SessionTests",
      dependencies: [
        "Accounts", "App", "AuthCore", "Providers", "Session", "TestSupport", "Theme",
      ]),
    .testTarget(
      name: "AgentTests",
      dependencies: [
        "Accounts", "Agent", "AgentProtocol", "AgentWire", "AuthCore", "Crypto", "Locations",
        "Providers", "TestSupport", "Vault",
      ]),
    .testTarget(
      name: "CommandsTests",
      dependencies: [
        "Commands", "Accounts", "Agent", "AuthCore", "Spelling", "System", "TestSupport", "Vault",
      ]),
    .testTarget(
      name: "CommandLineTests",
      dependencies: [
        "AgentProtocol", "authtui-core", "Crypto", "Loopback", "Sandbox", "TestSupport", "Vault",
      ]),
    .testTarget(
      name: "VaultTests", dependencies: ["Vault", "Crypto", "TestSupport", "VaultProbe"]),
    // A child process running Vault code, so tests can race and SIGKILL real processes.
    .executableTarget(
      name: "VaultProbe", dependencies: ["Vault", "Crypto"], path: "Tests/VaultProbe"),

    // Fuzz targets, one per parser of outside input (`make fuzz`; how it is built: the
    // Makefile's "Fuzzing" comment). Built normally, it replays its corpus (FuzzCorpusTests).
    .executableTarget(
      name: "authtui-fuzz",
      dependencies: [
        "Accounts", "Agent", "AuthCore", "Crypto", "JSON", "Loopback", "Providers", "Theme",
        "Vault",
      ],
      path: "Tests/Fuzz", exclude: ["Corpus"]),
    .testTarget(name: "FuzzCorpusTests", dependencies: ["authtui-fuzz", "TestSupport"]),

    // Benchmarks (run by `make bench`; built in release by the Benchmarks/ scripts).
    .executableTarget(
      name: "VaultBenchmark", dependencies: ["Vault", "Crypto"], path: "Benchmarks/VaultBenchmark"),
    .executableTarget(
      name: "TUIBenchmark",
      dependencies: ["Accounts", "App", "AuthCore", "Terminal", "TerminalCurses", "Theme"],
      path: "Benchmarks/TUIBenchmark"),
    .executableTarget(name: "AgentBurst", path: "Benchmarks/AgentBurst"),
  ],
  swiftLanguageModes: [.v6]
)
