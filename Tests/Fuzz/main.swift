import Foundation

#if canImport(Glibc)
  import Glibc
#endif

// The fuzz harness: `authtui-fuzz TARGET [libFuzzer options] [corpus folders]`.
//
// Built by `make fuzz` with `-sanitize=fuzzer,address -DFUZZING`, it hands the chosen target to
// libFuzzer through `LLVMFuzzerRunDriver`: this file keeps its own `main` (a SwiftPM executable
// always has one), so libFuzzer's `main` is never linked and the target is chosen by name rather
// than by one binary per target. Built normally (`swift build`), it replays the files and folders
// it is given through the target, so the corpus doubles as a regression test.

let arguments = CommandLine.arguments
guard arguments.count >= 2, arguments[1] != "--help" else {
  print("usage: authtui-fuzz TARGET [FILE|FOLDER…]   (authtui-fuzz --list names the targets)")
  exit(arguments.count >= 2 ? 0 : 2)
}
if arguments[1] == "--list" {
  for target in FuzzTargets.all { print("\(target.name)\t\(target.summary)") }
  exit(0)
}
guard let target = FuzzTargets.named(arguments[1]) else {
  FileHandle.standardError.write(
    Data("authtui-fuzz: no target \"\(arguments[1])\"; authtui-fuzz --list names them\n".utf8))
  exit(2)
}

#if FUZZING
  exit(runLibFuzzer(target, options: [arguments[0]] + arguments.dropFirst(2)))
#else
  exit(CorpusReplay.run(target, paths: Array(arguments.dropFirst(2))))
#endif
