import Foundation

/// Runs every file of the given files and folders through a target once, outside libFuzzer:
/// the normal build's use of the corpus (and of a crash file `make fuzz` left behind).
enum CorpusReplay {
  /// Replays `paths` (default: the target's corpus folder in the repository); returns the
  /// exit status: 0 when every input ran, 1 when a path could not be read.
  static func run(_ target: FuzzTarget, paths: [String]) -> Int32 {
    let roots = paths.isEmpty ? [defaultCorpus(of: target)] : paths
    var count = 0
    for root in roots {
      guard let files = inputFiles(at: root) else {
        FileHandle.standardError.write(Data("authtui-fuzz: cannot read \(root)\n".utf8))
        return 1
      }
      for file in files {
        guard let data = FileManager.default.contents(atPath: file) else {
          FileHandle.standardError.write(Data("authtui-fuzz: cannot read \(file)\n".utf8))
          return 1
        }
        target.run(Array(data))
        count += 1
      }
    }
    print("\(target.name): \(count) inputs ran")
    return 0
  }

  /// `Tests/Fuzz/Corpus/NAME` of the source tree this file was compiled from.
  static func defaultCorpus(of target: FuzzTarget) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Corpus").appendingPathComponent(target.name).path
  }

  /// The regular files at `path` (itself, or the files of the folder), sorted; nil if absent.
  private static func inputFiles(at path: String) -> [String]? {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
    guard isFolder.boolValue else { return [path] }
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
    return names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
  }
}
