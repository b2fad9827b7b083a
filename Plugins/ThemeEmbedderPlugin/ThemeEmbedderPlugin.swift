import Foundation
import PackagePlugin

/// Compiles the package's `Themes/*.theme` files into the target it is applied to (Theme), as
/// a generated `BuiltInThemeFiles` enum. Works offline; a new theme file is picked up by the
/// next build.
@main
struct ThemeEmbedderPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    let themes = context.package.directoryURL.appending(path: "Themes")
    let files = try FileManager.default.contentsOfDirectory(
      at: themes, includingPropertiesForKeys: nil
    )
    .filter { $0.pathExtension == "theme" }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
    let output = context.pluginWorkDirectoryURL.appending(path: "BuiltInThemeFiles.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(files.count) built-in themes",
        executable: try context.tool(named: "ThemeEmbedder").url,
        arguments: [output.path] + files.map(\.path),
        inputFiles: files,
        outputFiles: [output])
    ]
  }
}
