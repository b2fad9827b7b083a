import Crypto
import Foundation

/// Turns at the key derivation, shared by every process that unlocks the vault (schema 5).
///
/// scrypt with the vault's parameters takes 128 MiB and a core for about half a second: 200
/// `authtui token` calls at once, without an agent, once needed 25 GiB, and in a 4 GiB
/// container the kernel killed most of them without a word. So an unlock first takes a turn:
/// a row of `unlock_turns` (the holder's pid and process identity, as for refresh leases, and
/// an expiry) inserted in a short `BEGIN IMMEDIATE` transaction while fewer than
/// `UnlockCapacity` turns are held by live processes. scrypt runs outside any transaction, and
/// the row is deleted right after. A holder that died, or whose turn expired, is cleared by
/// the next process that takes one. A waiting process only reads (WAL readers block no one),
/// every 50 to 100 ms, and says once that it waits.
///
/// A vault that keeps no turns is unlocked at once, as before: one of an older schema until
/// its first unlock migrates it, and one that cannot be written (a read-only file or folder,
/// or a write lock another process keeps past the busy timeout: unlocking never needed it).
extension Vault {
  /// How long a turn is held at most: a derivation takes half a second, a slow one a few.
  static let unlockTurnLifetime: TimeInterval = 60

  /// One turn, held by this process: the random token of its row.
  struct UnlockTurn {
    let token: [UInt8]
  }

  /// What an attempt to take a turn found.
  enum UnlockTurnAttempt {
    case taken(UnlockTurn)
    /// This many live turns are held: the limit.
    case full(held: Int)
  }

  /// Waits for a turn at the key derivation for `parameters`, as `waiting` says; nil when the
  /// vault keeps no turns, or the turn cannot be written (the derivation then runs at once).
  /// Throws `unlockTurnTimedOut` when no turn came within `waiting.giveUpAfter`.
  func awaitUnlockTurn(for parameters: Scrypt.Parameters, waiting: UnlockWaiting)
    async
    throws(VaultError) -> UnlockTurn?
  {
    let connection = try openConnection()
    guard !connection.isReadOnly, (try? connection.hasTable("unlock_turns")) == true else {
      return nil
    }
    let started = Date()
    var noticed = false
    while true {
      let limit = waiting.turns(parameters)
      // Reading first: a writer would queue behind every other waiter's write lock.
      var held: Int
      do {
        held = try unlockTurnsHeld()
        if held < limit {
          switch try takeUnlockTurn(limit: limit) {
          case .taken(let turn): return turn
          case .full(let count): held = count
          }
        }
      } catch {
        // The turn cannot be written (a read-only file or folder, or another process kept the
        // write lock past the busy timeout): unlock as before turns, never worse.
        return nil
      }
      let waited = Date().timeIntervalSince(started)
      guard waited < waiting.giveUpAfter else {
        throw .unlockTurnTimedOut(
          path: location.fileURL.path, waited: Int(waiting.giveUpAfter.rounded()), others: held)
      }
      if !noticed && waited >= waiting.noticeAfter {
        noticed = true
        waiting.notice(held, limit)
      }
      // At random, so that waiters do not all look at once.
      try? await Task.sleep(for: .milliseconds(Int.random(in: 50...100)))
      // A caller that went away does not wait on: its derivation runs, then it ends.
      if Task.isCancelled { return nil }
    }
  }

  /// The turns held now by processes that still run and whose turn has not expired. Reads
  /// only; works while locked.
  package func unlockTurnsHeld(now: Date = Date()) throws(VaultError) -> Int {
    let holders = try openConnection().query(
      "SELECT holder_pid, holder_process, expires_at_ms FROM unlock_turns"
    ) {
      (
        process: LeaseHolderProcess(
          pid: Int32(truncatingIfNeeded: $0.int64(0)), identity: $0.text(1)),
        until: $0.int64(2)
      )
    }
    let nowMs = Self.unlockMilliseconds(now)
    return holders.filter { $0.until > nowMs && $0.process.isRunning }.count
  }

  /// In one `BEGIN IMMEDIATE` transaction: clears the turns of holders that ended or expired,
  /// and takes one when fewer than `limit` are left.
  func takeUnlockTurn(limit: Int, now: Date = Date()) throws(VaultError) -> UnlockTurnAttempt {
    let connection = try openConnection()
    let process = LeaseHolderProcess.current
    let nowMs = Self.unlockMilliseconds(now)
    return try connection.transaction(.immediate) { () throws(VaultError) in
      let turns = try connection.query(
        "SELECT turn_token, holder_pid, holder_process, expires_at_ms FROM unlock_turns"
      ) {
        (
          token: $0.blob(0) ?? [],
          process: LeaseHolderProcess(
            pid: Int32(truncatingIfNeeded: $0.int64(1)), identity: $0.text(2)),
          until: $0.int64(3)
        )
      }
      var held = 0
      for turn in turns {
        if turn.until > nowMs && turn.process.isRunning {
          held += 1
        } else {
          try connection.run("DELETE FROM unlock_turns WHERE turn_token = ?", [.blob(turn.token)])
        }
      }
      guard held < limit else { return .full(held: held) }
      let turn = UnlockTurn(token: SecureRandom.bytes(count: 16))
      try connection.run(
        """
        INSERT INTO unlock_turns (turn_token, holder_pid, holder_process, expires_at_ms)
        VALUES (?, ?, ?, ?)
        """,
        [
          .blob(turn.token), .integer(Int64(process.pid)), .text(process.identity),
          .integer(nowMs + Int64(Self.unlockTurnLifetime * 1000)),
        ])
      return .taken(turn)
    }
  }

  /// Gives `turn` back. A failure leaves the row to be cleared once this process has ended.
  func releaseUnlockTurn(_ turn: UnlockTurn) {
    _ = try? openConnection().run(
      "DELETE FROM unlock_turns WHERE turn_token = ?", [.blob(turn.token)])
  }

  private static func unlockMilliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded(.up))
  }
}
