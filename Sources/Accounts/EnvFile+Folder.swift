import Foundation

extension EnvFile {
  /// Why the folder of an env file could not be created.
  public struct FolderError: Error, Sendable, Equatable {
    /// The file system's reason.
    public let reason: String
  }

  /// `path` as the file system knows it: a leading `~` (typed into the UI's form, where no
  /// shell expands it) is the home folder.
  public static func expandingHome(
    _ path: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String {
    guard path == "~" || path.hasPrefix("~/") else { return path }
    let home = environment["HOME"] ?? NSHomeDirectory()
    return home + path.dropFirst()
  }

  /// Creates the folder `path` goes in (and its parents, mode 0700) when it is missing, so a
  /// new env file can be written where the user asked.
  public static func createFolder(of path: String) throws(FolderError) {
    do {
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent,
        withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw FolderError(reason: error.localizedDescription)
    }
  }
}
