import Foundation
import PackagePlugin

/// Compiles data files into the target it is applied to, as a generated enum of file names and
/// contents: `Themes/*.theme` (package root) into Theme as `BuiltInThemeFiles`, and the target's
/// `Sources/Providers/Presets/*.json` into Providers as `BuiltInPresetFiles`. Defaults are data read by the
/// same parser as users' files, and the binary needs no resource bundle beside it.
@main
struct EmbedDataFilesPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    let (folder, fileExtension, enumName): (URL, String, String)
    switch target.name {
    case "Theme":
      (folder, fileExtension, enumName) = (
        context.package.directoryURL.appending(path: "Themes"), "theme", "BuiltInThemeFiles"
      )
    case "Providers":
      (folder, fileExtension, enumName) = (
        context.package.directoryURL.appending(path: "Sources/Providers/Presets"), "json",
        "BuiltInPresetFiles"
      )
    default:
      throw EmbedError(message: "EmbedDataFiles does not know what to embed in \(target.name)")
    }
    let files = try FileManager.default.contentsOfDirectory(
      at: folder, includingPropertiesForKeys: nil
    )
    .filter { $0.pathExtension == fileExtension }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
    let output = context.pluginWorkDirectoryURL.appending(path: "\(enumName).swift")
    return [
      .buildCommand(
        displayName: "Embedding \(files.count) \(fileExtension) files into \(target.name)",
        executable: try context.tool(named: "DataFileEmbedder").url,
        arguments: [output.path, enumName] + files.map(\.path),
        inputFiles: files,
        outputFiles: [output])
    ]
  }
}

struct EmbedError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}
