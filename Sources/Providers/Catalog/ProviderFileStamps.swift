import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What identifies the contents of the provider files and `config.json` without reading them:
/// each file's name, inode, size, modification and status-change times. A save (in place or by
/// rename), a new file and a removed one all change it.
public struct ProviderFileStamps: Sendable, Equatable {
  /// Each file by its path relative to the configuration folder (`providers/work.json`).
  private var files: [String: [Int64]] = [:]

  /// The stamps of the files in `location` now (blocking: a directory listing and a `stat`
  /// per file).
  public init(of location: ConfigurationLocation) {
    let folder = location.providersDirectory.path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    for name in names where name.hasSuffix(".json") && !name.hasPrefix(".") {
      files["providers/" + name] = Self.stamp(folder + "/" + name)
    }
    files["config.json"] = Self.stamp(location.settingsFile.path)
    files = files.compactMapValues { $0.isEmpty ? nil : $0 }
  }

  /// What differs from `self` in `newer`, one phrase per file (`providers/work.json changed`).
  public func changes(to newer: ProviderFileStamps) -> [String] {
    Set(files.keys).union(newer.files.keys).sorted().compactMap { file in
      switch (files[file], newer.files[file]) {
      case (nil, _?): return "\(file) added"
      case (_?, nil): return "\(file) removed"
      case (let old?, let new?) where old != new: return "\(file) changed"
      default: return nil
      }
    }
  }

  /// The file's inode, size and times in nanoseconds; empty when there is no such file.
  private static func stamp(_ path: String) -> [Int64] {
    var info = stat()
    guard stat(path, &info) == 0 else { return [] }
    return [
      Int64(bitPattern: UInt64(info.st_ino)), Int64(info.st_size),
      Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
      Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec),
    ]
  }
}
