import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

extension RandomAccessCollection where Self: Sendable, Element: Sendable, Index == Int {
  /// `map(transform)`, its elements split into one consecutive part a core (at most four),
  /// each part mapped on a thread of its own at once; the results in the elements' order.
  ///
  /// For thousands of elements, each a few microseconds of work (an account's summary or its
  /// row of `list`'s table): fewer than `minimumPerPart` elements a part, it maps them on the
  /// caller's thread alone, where starting the threads would cost more than they save. The
  /// caller's thread maps parts too, and returns when every part is done: a cooperative-pool
  /// task is held no longer than by `map` (when no other thread is free, it maps every part
  /// itself).
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

/// How many threads `parallelMap` splits work over: the online cores, at most four.
enum ParallelParts {
  static let cores: Int = {
    #if canImport(Glibc)
      return Swift.min(4, Swift.max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    #else
      return 1
    #endif
  }()
}

/// The result array of `parallelMap` as its threads share it: each initialises the elements
/// of its own part only, so no element is touched by two threads.
private struct ResultSlots<Result>: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<Result>

  init(_ buffer: UnsafeMutableBufferPointer<Result>) {
    self.buffer = buffer
  }

  func initialize(_ offset: Int, to value: consuming Result) {
    buffer.initializeElement(at: offset, to: value)
  }
}
