import Crypto
import Foundation

/// How `Vault.unlock(with:waiting:)` waits for its turn at the key derivation when other
/// processes hold every turn (`UnlockCapacity`, `Vault+UnlockTurns.swift`).
public struct UnlockWaiting: Sendable {
  /// How long an unlock waits for a turn before it gives up (`unlockTurnTimedOut`): generous,
  /// since a burst of hundreds of unlocks, each half a second, two at a time, takes minutes.
  public static let maximumWait: TimeInterval = 300
  /// After how long a waiting unlock says so.
  public static let noticeDelay: TimeInterval = 2

  /// Hears once, after `noticeAfter` seconds of waiting, how many other unlocks hold turns
  /// and how many may run at once.
  public var notice: @Sendable (_ others: Int, _ turns: Int) -> Void
  /// When `notice` is called.
  public var noticeAfter: TimeInterval
  /// When the unlock gives up.
  public var giveUpAfter: TimeInterval
  /// How many derivations with these parameters may run at once (tests give a number).
  package var turns: @Sendable (Scrypt.Parameters) -> Int

  /// Waits up to `giveUpAfter` seconds, telling `notice` after `noticeAfter`.
  public init(
    noticeAfter: TimeInterval = noticeDelay, giveUpAfter: TimeInterval = maximumWait,
    notice: @escaping @Sendable (_ others: Int, _ turns: Int) -> Void = { _, _ in }
  ) {
    self.notice = notice
    self.noticeAfter = noticeAfter
    self.giveUpAfter = giveUpAfter
    self.turns = UnlockCapacity.turns(for:)
  }

  /// Waits as long as `maximumWait`, and says nothing while it does.
  public static let quiet = UnlockWaiting()
}
