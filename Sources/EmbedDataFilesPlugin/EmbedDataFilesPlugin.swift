import Foundation
import PackagePlugin

/// Compiles data files into the target it is applied to, as a generated enum of names and
/// texts: `Themes/*.theme` (package root) into Theme as `BuiltInThemeFiles`, and
/// `Sources/Providers/Presets/*.json` into Providers as `BuiltInPresetFiles`. Defaults are data
/// read by the same parser as the user's files (tig's built-in tigrc), and the binary needs no
/// resource bundle beside it. Works offline; a new file is picked up by the next build.
@main
struct EmbedDataFilesPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    let root = context.package.directoryURL
    let (folder, fileExtension, enumName): (URL, String, String)
    switch target.name {
    case "Theme":
      (folder, fileExtension, enumName) = (
        root.appending(path: "Themes"), "theme", "BuiltInThemeFiles"
      )
    case "Providers":
      (folder, fileExtension, enumName) = (
        root.appending(path: "Sources/Providers/Presets"), "json", "BuiltInPresetFiles"
      )
    default:
      throw EmbedDataFilesError(target: target.name)
    }
    let files = try FileManager.default.contentsOfDirectory(
      at: folder, includingPropertiesForKeys: nil
    )
    .filter { $0.pathExtension == fileExtension }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
    let output = context.pluginWorkDirectoryURL.appending(path: "\(enumName).swift")
    return [
      .buildCommand(
        displayName: "Embedding \(files.count) .\(fileExtension) files into \(target.name)",
        executable: try context.tool(named: "DataFileEmbedder").url,
        arguments: [output.path, enumName] + files.map(\.path),
        inputFiles: files,
        outputFiles: [output])
    ]
  }
}

/// The plugin was applied to a target it has no data files for.
struct EmbedDataFilesError: Error, CustomStringConvertible {
  let target: String
  var description: String {
    "EmbedDataFiles has no data files for \(target); add a case to EmbedDataFilesPlugin.swift"
  }
}
