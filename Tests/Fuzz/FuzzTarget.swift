import Foundation
import JSON

#if canImport(Glibc)
  import Glibc
#endif

/// One parser that reads outside input, driven with arbitrary bytes: by libFuzzer in the fuzz
/// build (`make fuzz`), by the corpus replay in the normal build (`authtui-fuzz NAME FILE…`).
///
/// `run` must never crash or hang on any input; where an invariant is cheap to state (a round
/// trip, a value the parser promises to keep) it checks it with `require`, which aborts so that
/// libFuzzer keeps the input that broke it.
struct FuzzTarget: Sendable {
  /// The name on the command line and of the corpus folder (`Tests/Fuzz/Corpus/NAME`).
  let name: String
  /// What is fuzzed, for `authtui-fuzz --list`.
  let summary: String
  /// Feeds one input to the parser and checks what it returned.
  let run: @Sendable ([UInt8]) -> Void
}

extension FuzzTarget {
  /// A target for an answer read as a JSON object first, as every reader of a server's answer
  /// does (`JSONValue.object(from:)`): `check` gets the object, and any other input ends there.
  static func readingJSONObject(
    name: String, summary: String, _ check: @escaping @Sendable ([String: JSONValue]) -> Void
  ) -> FuzzTarget {
    FuzzTarget(name: name, summary: summary) { bytes in
      guard let json = JSONValue.object(from: Data(bytes)) else { return }
      check(json)
    }
  }
}

/// Stops the run when an invariant does not hold: prints what broke to standard error and
/// aborts, which libFuzzer reports as a crash and saves the input for.
func require(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
  file: StaticString = #fileID, line: UInt = #line
) {
  guard !condition() else { return }
  FileHandle.standardError.write(Data("invariant broken at \(file):\(line): \(message())\n".utf8))
  abort()
}

extension String {
  /// The input as text the way the program reads a file: invalid UTF-8 repaired, as
  /// `String(decoding:as:)` does in every file reader here.
  init(fuzzInput bytes: [UInt8]) {
    self = String(decoding: bytes, as: UTF8.self)
  }
}

/// The number of lines of `text` as the parsers number them: one more than its "\n" scalars
/// (a Character split would take "\r\n", one Character in Swift, for no line break at all).
func lineCount(of text: String) -> Int {
  text.unicodeScalars.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
}
