import Testing

@testable import Isolation

/// `releaseAside` frees what it is given, on another thread, and keeps nothing: the last
/// reference it takes is the last there is.
@Suite struct ReleaseAsideTests {
  final class Watched: Sendable {
    let freed: AsyncStream<Void>.Continuation

    init(_ freed: AsyncStream<Void>.Continuation) {
      self.freed = freed
    }

    deinit {
      freed.yield()
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func freesWhatItIsGivenElsewhere() async {
    let (freed, continuation) = AsyncStream<Void>.makeStream()
    let values = (0..<1_000).map { _ in Watched(continuation) }
    releaseAside(consume values)
    var count = 0
    for await _ in freed {
      count += 1
      if count == 1_000 { break }
    }
    #expect(count == 1_000)
  }
}
