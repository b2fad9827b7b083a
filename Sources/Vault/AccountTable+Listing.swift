import Foundation
import Isolation

extension AccountTable {
  /// How many rows are read before they are opened together, and how many threads open them:
  /// one a core, at most four. A listing of a few hundred accounts opens them on this thread
  /// alone; a long one spreads each batch over the cores, each thread with keys and a cipher of
  /// its own (OpenSSL's contexts are not shared), and holds one batch of sealed rows at a time.
  static let listingBatch = 1024
  static let listingThreads = ParallelParts.cores

  /// Every row, opened as `stored` opens it, in the order the rows are read. The caller reads
  /// in one transaction, if it needs the rows and their keys' thumbprints from one snapshot.
  func storedRows() throws(VaultError) -> [StoredAccount] {
    var opened: [StoredAccount] = []
    var batch: [StoredAccountRow] = []
    batch.reserveCapacity(Self.listingBatch)
    var openers: [AccountTable] = [self]
    var failure: VaultError?
    _ = try mapRows { row in
      batch.append(row)
      guard batch.count == Self.listingBatch, failure == nil else { return }
      if openers.count == 1 && Self.listingThreads > 1 {
        do throws(VaultError) {
          for _ in 1..<Self.listingThreads { openers.append(try withOwnKeys()) }
        } catch {
          failure = error
          return
        }
      }
      opened += Self.open(batch, with: openers)
      batch.removeAll(keepingCapacity: true)
    }
    if let failure { throw failure }
    opened += Self.open(batch, with: openers)
    return opened
  }

  /// `rows` opened in as many consecutive parts as there are `openers`, each part by its own,
  /// at once.
  private static func open(_ rows: [StoredAccountRow], with openers: [AccountTable])
    -> [StoredAccount]
  {
    guard openers.count > 1, rows.count >= openers.count else {
      return rows.map(openers[0].stored)
    }
    let work = OpeningWork(rows: rows, openers: openers)
    DispatchQueue.concurrentPerform(iterations: openers.count) { part in
      work.open(part)
    }
    return work.results()
  }

  /// The same table with keys and a cipher of its own, to open rows on another thread: they
  /// hold OpenSSL contexts, which one thread at a time may use. It must not use the connection.
  private func withOwnKeys() throws(VaultError) -> AccountTable {
    AccountTable(
      connection: connection, keys: try VaultKeys(dataKey: keys.dataKey),
      sealer: CellSealer(
        key: sealer.key, vaultID: sealer.vaultID, schemaVersion: sealer.schemaVersion))
  }
}

/// What the threads of `AccountTable.open` share: each part's thread uses only its own opener
/// (its keys and cipher) and writes only its own slot, and the results are read after every
/// thread is done (`concurrentPerform` returns then), so nothing is touched by two threads.
private final class OpeningWork: @unchecked Sendable {
  private let rows: [StoredAccountRow]
  private let openers: [AccountTable]
  private let partSize: Int
  private let slots: UnsafeMutableBufferPointer<[StoredAccount]>

  init(rows: [StoredAccountRow], openers: [AccountTable]) {
    self.rows = rows
    self.openers = openers
    partSize = (rows.count + openers.count - 1) / openers.count
    slots = .allocate(capacity: openers.count)
    slots.initialize(repeating: [])
  }

  deinit {
    slots.deinitialize()
    slots.deallocate()
  }

  /// Opens part `part` of the rows into its slot.
  func open(_ part: Int) {
    let start = part * partSize
    let end = min(rows.count, start + partSize)
    guard start < end else { return }
    slots[part] = rows[start..<end].map(openers[part].stored)
  }

  /// Every part's rows, in order.
  func results() -> [StoredAccount] {
    Array(slots.joined())
  }
}
