import Testing

@testable import Isolation

/// `parallelMap` gives what `map` gives, in the same order, however the elements split into
/// parts: none lost at a part's edge, none twice.
@Suite struct ParallelMapTests {
  @Test(arguments: [0, 1, 2, 511, 512, 1023, 1024, 1025, 2047, 4099, 10_001])
  func givesWhatMapGives(count: Int) {
    let numbers = Array(0..<count)
    #expect(numbers.parallelMap { $0 * 3 + 1 } == numbers.map { $0 * 3 + 1 })
  }

  @Test func splitsAtTheSmallestPartItIsGiven() {
    let numbers = Array(0..<37)
    #expect(numbers.parallelMap(minimumPerPart: 1) { "\($0)" } == numbers.map { "\($0)" })
    #expect(numbers.parallelMap(minimumPerPart: 0) { -$0 } == numbers.map { -$0 })
  }

  /// A slice keeps its own indices: the elements mapped are the slice's, not the array's
  /// first ones.
  @Test func mapsASliceByItsOwnIndices() {
    let numbers = Array(0..<5_000)
    let slice = numbers[1_234..<4_321]
    #expect(slice.parallelMap(minimumPerPart: 100) { $0 } == Array(slice))
  }

  /// Results that own memory (strings, arrays) come out whole: each was made in place.
  @Test func keepsResultsThatOwnMemory() {
    let words = (0..<3_000).map { String(repeating: "w", count: $0 % 40) + "\($0)" }
    let mapped = words.parallelMap { [$0, $0.uppercased()] }
    #expect(mapped == words.map { [$0, $0.uppercased()] })
  }

  @Test func usesAtMostFourThreads() {
    #expect((1...4).contains(ParallelParts.cores))
  }
}
