import AuthCore
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui providers remove ID`: the user's file `providers/ID.json` deleted, after what the
/// caller must do first (accounts checked, an RFC 7592 registration deleted).
public enum ProviderRemoval {
  /// Deletes `providers/ID.json` of `location`: only a regular file of this user's (a link, a
  /// FIFO or a folder there is named and left for the user), and the folder is synced so the
  /// removal stays. A built-in preset has no file to remove, unless one overrides it.
  public static func removeFile(of id: ProviderID, in location: ConfigurationLocation)
    throws(ProviderRemovalError) -> String
  {
    let url = location.providersDirectory.appendingPathComponent("\(id).json")
    let shown = ConfigurationLocation.display(url)
    let existing: ConfigurationFile.FileIdentity?
    do {
      existing = try ConfigurationFile.existingFile(at: url.path)
    } catch {
      throw .file(path: shown, reason: error.reason)
    }
    guard existing != nil else {
      throw .noFile(id, path: shown, isPreset: ProviderCatalog.presets[id.rawValue]?.id == id)
    }
    guard unlink(url.path) == 0 else {
      throw .file(path: shown, reason: "it cannot be removed (\(String(cString: strerror(errno))))")
    }
    let folder = open(location.providersDirectory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folder >= 0 {
      fsync(folder)
      close(folder)
    }
    return shown
  }
}

/// Why a provider's file was not removed; `description` says what to do.
public enum ProviderRemovalError: Error, Sendable, Equatable, CustomStringConvertible {
  /// There is no `providers/ID.json`.
  case noFile(ProviderID, path: String, isPreset: Bool)
  /// The file cannot be removed.
  case file(path: String, reason: String)

  public var description: String {
    switch self {
    case .noFile(let id, let path, let isPreset):
      if isPreset {
        return "\(id) is a built-in preset with no file of yours to remove (\(path) does not "
          + "exist); it stays listed until you give it a client id"
      }
      return "no provider file \(path); `authtui providers` lists the providers there are"
    case .file(let path, let reason):
      return "\(path): \(reason)"
    }
  }
}
