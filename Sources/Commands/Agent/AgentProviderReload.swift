import Accounts
import Agent
import Foundation
import Isolation
import Providers

#if canImport(Glibc)
  import Glibc
#endif

/// The agent's providers kept as the files say: read again on SIGHUP, and when a look at the
/// files' modification stamps (every `pollInterval`) finds one changed, added or removed.
///
/// A catalog in which a file that read before (or was not there) now cannot be read is not
/// taken: the agent keeps the providers it has and says what is wrong, as a server keeps its
/// configuration when a reload fails. Files and stamps are read on a thread of their own.
actor AgentProviderReload {
  /// How often the files' stamps are looked at: a saved file is in use within this.
  static let pollInterval: TimeInterval = 2

  /// What made the agent read the files.
  enum Trigger: Sendable {
    case signal
    case fileChanged

    var text: String {
      switch self {
      case .signal: return "SIGHUP"
      case .fileChanged: return "a file changed"
      }
    }
  }

  private let options: GlobalOptions
  /// The stamps of the files the catalog in use was read from.
  private var loaded: ProviderFileStamps
  private var catalog: ProviderCatalog

  /// A reload for the providers `options` name, in use now as `catalog`, read from files that
  /// had `stamps`.
  init(options: GlobalOptions, catalog: ProviderCatalog, stamps: ProviderFileStamps) {
    self.options = options
    self.catalog = catalog
    self.loaded = stamps
  }

  /// The stamps of the files `options` names, read on a thread of their own.
  static func stamps(_ options: GlobalOptions) async -> ProviderFileStamps {
    let location = AccountAccess.configuration(options)
    return await onOwnThread(named: "agent-provider-stamps") { ProviderFileStamps(of: location) }
  }

  /// True when the files differ from those the providers in use were read from.
  func filesChanged() async -> Bool {
    await Self.stamps(options) != loaded
  }

  /// Reads the files again and, unless one became unreadable, serves `service`'s requests with
  /// the providers they now say; returns the line that tells the user which.
  func reload(after trigger: Trigger, into service: AgentService) async -> String {
    let options = self.options
    let (stamps, fresh) = await onOwnThread(named: "agent-provider-reload") {
      // The stamps first: a file saved while it is read is read again at the next look.
      let stamps = ProviderFileStamps(of: AccountAccess.configuration(options))
      return (
        stamps, AccountAccess.catalog(options, console: Console(), reportProblems: false)
      )
    }
    let broken = fresh.skippedFiles.filter { !catalog.skippedFiles.contains($0) }
    guard broken.isEmpty else {
      // Taken as seen, so the same broken file is not reported again at every look.
      loaded = stamps
      return "authtui agent: kept the providers as they were (\(trigger.text)): "
        + broken.map(\.description).joined(separator: "; ")
    }
    let changes = loaded.changes(to: stamps)
    loaded = stamps
    catalog = fresh
    await service.replaceBook(AccountAccess.book(over: service.vault, catalog: fresh))
    var line =
      "authtui agent: read the provider files again (\(trigger.text)): "
      + (changes.isEmpty ? "no file changed" : changes.joined(separator: ", "))
    if !fresh.skippedFiles.isEmpty {
      let files = fresh.skippedFiles.map(\.file).reduce(into: [String]()) { files, file in
        if !files.contains(file) { files.append(file) }
      }
      line += "; still unreadable: " + files.joined(separator: ", ")
    }
    return line
  }
}

/// What identifies the contents of the provider files and `config.json` without reading them:
/// each file's name, inode, size, modification and status-change times. A save (in place or by
/// rename), a new file and a removed one all change it.
struct ProviderFileStamps: Sendable, Equatable {
  /// Each file by its path relative to the configuration folder (`providers/work.json`).
  private var files: [String: [Int64]] = [:]

  /// The stamps of the files in `location` now (blocking: a directory listing and a `stat`
  /// per file).
  init(of location: ConfigurationLocation) {
    let folder = location.providersDirectory.path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    for name in names where name.hasSuffix(".json") && !name.hasPrefix(".") {
      files["providers/" + name] = Self.stamp(folder + "/" + name)
    }
    files["config.json"] = Self.stamp(location.settingsFile.path)
    files = files.compactMapValues { $0.isEmpty ? nil : $0 }
  }

  /// What differs from `self` in `newer`, one phrase per file (`providers/work.json changed`).
  func changes(to newer: ProviderFileStamps) -> [String] {
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
