import Accounts
import Agent
import Foundation
import Isolation
import Providers

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
    let (stamps, fresh, (settings, settingsProblems)) = await onOwnThread(
      named: "agent-provider-reload"
    ) {
      // The stamps first: a file saved while it is read is read again at the next look.
      let stamps = ProviderFileStamps(of: AccountAccess.configuration(options))
      return (
        stamps, AccountAccess.catalog(options, console: Console(), reportProblems: false),
        UserSettings.load(from: AccountAccess.configuration(options))
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
    if let rules = AgentConfirmation.rules(nil, settings) {
      await service.replaceConfirmationAccounts(rules.accounts)
    } else {
      // Rules it cannot be sure of would hand out unconfirmed what was to be confirmed.
      line +=
        "; kept the confirmation rules as they were, config.json cannot state them: "
        + AgentConfirmation.uncertainty(settings, settingsProblems)
    }
    if !fresh.skippedFiles.isEmpty {
      let files = fresh.skippedFiles.map(\.file).reduce(into: [String]()) { files, file in
        if !files.contains(file) { files.append(file) }
      }
      line += "; still unreadable: " + files.joined(separator: ", ")
    }
    return line
  }
}
