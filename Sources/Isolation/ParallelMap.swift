import Dispatch
import Foundation

extension RandomAccessCollection where Self: Sendable, Element: Sendable, Index == Int {
  /// `map(transform)`, its elements split into one consecutive part a core (at most four,
  /// `ParallelParts.cores`), each part mapped on a thread of its own at once; the results in
  /// the elements' order.
  ///
  /// For thousands of elements, each a few microseconds of work (an account's summary or its
  /// row of `list`'s table): fewer than `minimumPerPart` elements a part, it maps them on the
  /// caller's thread alone, where starting the threads would cost more than they save. The
  /// caller's thread maps parts too, and returns when every part is done: a cooperative-pool
  /// task is held no longer than by `map` (when no other thread is free, it maps every part
  /// itself).
  @inlinable
  public func parallelMap<Result: Sendable>(
    minimumPerPart: Int = 512, _ transform: @Sendable (Element) -> Result
  ) -> [Result] {
    let parts = Swift.min(ParallelParts.cores, count / Swift.max(1, minimumPerPart))
    guard parts > 1 else { return map(transform) }
    let count = count
    let partSize = (count + parts - 1) / parts
    // Each part's thread initialises only its own elements of the result, in place (no
    // part's array copied into the whole afterwards), and every element is initialised when
    // `concurrentPerform` returns: `transform` cannot throw.
    return [Result](unsafeUninitializedCapacity: count) { buffer, initialized in
      let results = ResultSlots(buffer)
      DispatchQueue.concurrentPerform(iterations: parts) { part in
        for offset in Swift.min(count, part * partSize)..<Swift.min(count, (part + 1) * partSize) {
          results.initialize(offset, to: transform(self[startIndex + offset]))
        }
      }
      initialized = count
    }
  }
}

/// How many parts work for thousands of accounts is split into (`parallelMap`, the vault's
/// listing): the cores this process may use (`activeProcessorCount`, which heeds its CPU
/// affinity), at most four.
public enum ParallelParts {
  public static let cores = Swift.min(4, Swift.max(1, ProcessInfo.processInfo.activeProcessorCount))
}

/// The result array of `parallelMap` as its threads share it: each initialises the elements
/// of its own part only, so no element is touched by two threads.
@usableFromInline
struct ResultSlots<Result>: @unchecked Sendable {
  @usableFromInline let buffer: UnsafeMutableBufferPointer<Result>

  @inlinable
  init(_ buffer: UnsafeMutableBufferPointer<Result>) {
    self.buffer = buffer
  }

  @inlinable
  func initialize(_ offset: Int, to value: consuming Result) {
    buffer.initializeElement(at: offset, to: value)
  }
}
