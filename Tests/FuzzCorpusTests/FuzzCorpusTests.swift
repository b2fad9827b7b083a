import Foundation
import TestSupport
import Testing

/// Every fuzz target's seed corpus (Tests/Fuzz/Corpus), replayed through the plain build of
/// `authtui-fuzz`: an input that once crashed a parser or broke an invariant, once added to the
/// corpus, is checked by every `swift test`.
@Suite struct FuzzCorpusTests {
  static let harness = Products.path("authtui-fuzz")

  /// The targets the harness knows, from `authtui-fuzz --list`.
  static func targets() async throws -> [String] {
    let listing = try await ChildProcess.run(harness, ["--list"])
    return listing.stdout.split(separator: "\n").compactMap {
      $0.split(separator: "\t").first.map(String.init)
    }
  }

  @Test func everyTargetHasASeedCorpusAndEverySeedFolderATarget() async throws {
    let targets = try await Self.targets()
    let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")
    let folders = try FileManager.default.contentsOfDirectory(atPath: seeds.path)
    #expect(Set(targets) == Set(folders))
    #expect(targets.count >= 16)
  }

  @Test func everySeedInputRunsThroughItsTargetWithoutBreakingAnInvariant() async throws {
    for target in try await Self.targets() {
      let result = try await ChildProcess.run(Self.harness, [target])
      #expect(result.status == 0, "\(target): \(result.stderr)")
      #expect(result.stdout.hasPrefix("\(target): "), "\(target): \(result.stdout)")
      #expect(!result.stdout.hasPrefix("\(target): 0 inputs"), "\(target) has no seeds")
    }
  }
}
