import AuthCore
import Foundation
import JSON

extension ProviderAddition {
  /// Writes the provider into `providers/ID.json` of `location` and returns the file: the
  /// folder is created 0700 when missing, and the file written as every configuration file is
  /// (`ConfigurationFile.replace`: a new 0600 file beside it, synced, renamed over it; never
  /// through a link, a FIFO or a device). A file already there is refused unless `replacing`;
  /// a built-in preset's id always is, since a file of that name changes the preset.
  @discardableResult
  public func save(in location: ConfigurationLocation, replacing: Bool)
    throws(ProviderAdditionError) -> URL
  {
    if ProviderCatalog.presets[id.rawValue]?.id == id { throw .presetID(id) }
    let (url, shown) = try Self.makeFolder(for: id, in: location)
    let existing: ConfigurationFile.FileIdentity?
    do {
      existing = try ConfigurationFile.existingFile(at: url.path)
    } catch {
      throw .file(path: shown, reason: error.reason)
    }
    if existing != nil && !replacing { throw .exists(id, path: shown) }
    do {
      try ConfigurationFile.replace(
        url.path, expecting: existing, with: OrderedJSON.object(members).prettyText + "\n")
    } catch {
      throw .file(path: shown, reason: error.reason)
    }
    return url
  }

  /// Refuses, before any request is made, what `save` would refuse as it writes
  /// `providers/ID.json`, with the same words: a folder that cannot be made (or is no folder),
  /// one no file can be made in (read-only, another user's), and a link, FIFO, device or
  /// folder at the file's path. A registration whose file then could not be written would be
  /// left at the server. The folder is made (0700) when missing, as `save` would make it, for
  /// the check, and removed again after it (with the parents it made): a discovery or a
  /// registration that fails leaves no empty folder behind, and `save` makes it again.
  static func checkWritable(_ id: ProviderID, in location: ConfigurationLocation)
    throws(ProviderAdditionError)
  {
    var missing: [String] = []
    var folder = location.providersDirectory.standardizedFileURL
    while folder.path != "/", !FileManager.default.fileExists(atPath: folder.path) {
      missing.append(folder.path)
      folder = folder.deletingLastPathComponent()
    }
    // Deepest first; rmdir removes only a folder still empty.
    defer { for path in missing { rmdir(path) } }
    let (url, shown) = try makeFolder(for: id, in: location)
    do {
      try ConfigurationFile.checkReplaceable(url.path)
    } catch {
      throw .file(path: shown, reason: error.reason)
    }
  }

  /// `providers/ID.json` of `location`, as a URL and as messages show it, with its folder
  /// made (0700) when missing.
  private static func makeFolder(for id: ProviderID, in location: ConfigurationLocation)
    throws(ProviderAdditionError) -> (url: URL, shown: String)
  {
    let folder = location.providersDirectory
    let url = folder.appendingPathComponent("\(id).json")
    let shown = ConfigurationLocation.display(url)
    do {
      try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw .file(
        path: shown,
        reason: "its folder cannot be created (\(error.localizedDescription)); check "
          + ConfigurationLocation.display(location.directory))
    }
    return (url, shown)
  }
}
