import Foundation
import Isolation

extension AccountTable {
  /// How many rows are read before they are handed on to be opened, and how many threads open
  /// them: one a core, at most four. A listing of fewer rows than a batch opens them on this
  /// thread alone; a longer one hands each batch to one of the opening threads, each with keys
  /// and a cipher of its own (OpenSSL's contexts are not shared), and goes on reading the next
  /// while they open: the reading and the opening overlap.
  static let listingBatch = 1024
  static let listingThreads = ParallelParts.cores

  /// Every row, opened as `stored` opens it, in the order the rows are read. The caller reads
  /// in one transaction, if it needs the rows and their keys' thumbprints from one snapshot.
  func storedRows() throws(VaultError) -> [StoredAccount] {
    var batch: [StoredAccountRow] = []
    batch.reserveCapacity(Self.listingBatch)
    var opening: OpeningBatches?
    var failure: VaultError?
    do throws(VaultError) {
      _ = try mapRows { row in
        batch.append(row)
        guard batch.count == Self.listingBatch, failure == nil else { return }
        if opening == nil {
          do throws(VaultError) {
            opening = try OpeningBatches(openers: openers())
          } catch {
            failure = error
            return
          }
        }
        opening?.open(batch)
        batch.removeAll(keepingCapacity: true)
      }
    } catch {
      failure = failure ?? error
    }
    guard let opening else {
      if let failure { throw failure }
      return batch.map(stored)
    }
    if failure == nil { opening.open(batch) }
    // Every batch handed on is opened before this returns, whatever happened: the openers
    // include this table, whose cipher nothing else may use meanwhile.
    let opened = opening.finish()
    if let failure { throw failure }
    return opened
  }

  /// This table and, for every other opening thread, the same table with keys and a cipher of
  /// its own: they hold OpenSSL contexts, which one thread at a time may use. None of them may
  /// use the connection while they open, which the reading thread goes on using.
  private func openers() throws(VaultError) -> [AccountTable] {
    var openers = [self]
    for _ in 1..<Self.listingThreads {
      openers.append(
        AccountTable(
          connection: connection, keys: try VaultKeys(dataKey: keys.dataKey),
          sealer: CellSealer(
            key: sealer.key, vaultID: sealer.vaultID, schemaVersion: sealer.schemaVersion)))
    }
    return openers
  }
}

/// The batches of one listing being opened: batch `n` goes to opener `n` modulo their count, on
/// that opener's own serial queue, so an opener is used by one thread at a time. Each batch's
/// result is written by its queue alone, and read only after `finish` has waited for every
/// queue: nothing is touched by two threads at once.
private final class OpeningBatches: @unchecked Sendable {
  /// One batch: its sealed rows, then its opened accounts.
  private final class Batch: @unchecked Sendable {
    var rows: [StoredAccountRow]
    var opened: [StoredAccount] = []

    init(_ rows: [StoredAccountRow]) {
      self.rows = rows
    }
  }

  private let openers: [AccountTable]
  private let queues: [DispatchQueue]
  private let group = DispatchGroup()
  private var batches: [Batch] = []

  init(openers: [AccountTable]) {
    self.openers = openers
    queues = openers.indices.map { _ in
      DispatchQueue(label: "authtui.vault.opening", qos: .userInitiated)
    }
  }

  /// Hands `rows` to the next opener; returns at once.
  func open(_ rows: [StoredAccountRow]) {
    guard !rows.isEmpty else { return }
    let batch = Batch(rows)
    let part = batches.count % openers.count
    batches.append(batch)
    queues[part].async(group: group) {
      batch.opened = batch.rows.map(self.openers[part].stored)
      batch.rows = []
    }
  }

  /// Every batch's accounts, in order, once all are opened.
  func finish() -> [StoredAccount] {
    group.wait()
    var opened: [StoredAccount] = []
    opened.reserveCapacity(batches.reduce(0) { $0 + $1.opened.count })
    for batch in batches { opened += batch.opened }
    return opened
  }
}
