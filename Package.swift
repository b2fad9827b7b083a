// swift-tools-version: 6.0
// authtui: a keyboard-driven terminal account manager for OAuth public clients.
// Module layout and import rules: see README.md ("Architecture") and scripts/check-imports.
import PackageDescription

let package = Package(
  name: "authtui",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "authtui", targets: ["authtui"]),
    .executable(name: "authtui-sandbox", targets: ["authtui-sandbox"]),
  ],
  targets: [
    // C libraries, each imported by exactly one Swift target.
    .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
    .systemLibrary(name: "CNcursesW", providers: [.apt(["libncurses-dev"])]),

    // Swift modules, lowest first.
    .target(name: "Crypto", dependencies: ["COpenSSL"]),
    .target(name: "Vault", dependencies: ["Crypto", "CSQLite"]),
    .target(name: "Terminal"),
    .target(name: "TerminalCurses", dependencies: ["Terminal", "CNcursesW"]),
    .target(name: "Theme", dependencies: ["Terminal"]),
    .target(name: "AuthCore", dependencies: ["Crypto"]),
    .target(
      name: "Providers", dependencies: ["AuthCore"], exclude: ["Presets"],
      plugins: ["EmbedDataFilesPlugin"]),
    .target(name: "Sandbox", dependencies: ["AuthCore", "Crypto"]),
    .target(
      name: "App",
      dependencies: ["Terminal", "Theme", "AuthCore", "Providers", "Vault"]),

    // Build tool: compiles data files (Themes/*.theme, provider presets) into their modules.
    .executableTarget(name: "DataFileEmbedder"),
    .plugin(
      name: "EmbedDataFilesPlugin", capability: .buildTool(), dependencies: ["DataFileEmbedder"],
      path: "Sources/EmbedDataFilesPlugin"),

    // Composition roots.
    .executableTarget(
      name: "authtui",
      dependencies: [
        "App", "AuthCore", "Crypto", "Providers", "Sandbox", "Terminal", "TerminalCurses",
        "Theme", "Vault",
      ]),
    .executableTarget(name: "authtui-sandbox", dependencies: ["Sandbox"]),

    // Tests mirror the source folders.
    .testTarget(name: "CryptoTests", dependencies: ["Crypto"]),
    .testTarget(name: "AuthCoreTests", dependencies: ["AuthCore", "Crypto", "TestSupport"]),
    .testTarget(name: "ProvidersTests", dependencies: ["Providers", "AuthCore", "TestSupport"]),
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(name: "CommandLineTests", dependencies: ["authtui", "TestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
