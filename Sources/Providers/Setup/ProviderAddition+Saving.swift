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
}
