import AgentWire
import Locations
import Spelling

#if canImport(Glibc)
  import Glibc
#endif

/// The full program, `authtui-core`: beside the front (`swift build` output, or a `bin` folder it
/// was copied to with it), else in `../libexec/authtui/` (`make install`).
enum FullProgram {
  /// The name of the full program's executable.
  static let name = "authtui-core"

  /// Replaces this process with the full program, given `arguments` unchanged; returns only
  /// by exiting with a message when it cannot be found or started.
  static func exec(_ arguments: [String]) -> Never {
    let folder = ownFolder()
    let candidates = [folder + "/" + name, folder + "/../libexec/authtui/" + name]
    for path in candidates where access(path, X_OK) == 0 {
      var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
      argv.append(nil)
      execv(path, &argv)
      let reason = String(cString: strerror(errno))
      FrontOutput.write("authtui: cannot start \(path): \(reason)\n", to: 2)
      exit(1)
    }
    FrontOutput.write(
      "authtui: the full program \(name) is missing: looked for \(candidates.joined(separator: " and ")); "
        + "build it with `swift build` (or `make install` again)\n", to: 2)
    exit(1)
  }

  /// The folder of this executable, links resolved, so that a link to `authtui` in another
  /// folder still finds the full program beside the real file.
  private static func ownFolder() -> String {
    PathText.folder(of: PathText.runningExecutable())
  }
}

/// Unbuffered writes (the process exits or `exec`s right after; nothing may stay in a buffer).
enum FrontOutput {
  /// Writes all of `text` to `descriptor`; 0, or the `errno` of the write that failed.
  @discardableResult
  static func write(_ text: String, to descriptor: Int32) -> Int32 {
    DescriptorWrite.all(text, to: descriptor)
  }

  /// Writes the agent's `note` (less validity left than asked for, and why) to standard error,
  /// cleaned and worded as the full program's `Console` says it.
  static func note(_ note: String) {
    write(
      "authtui: " + TerminalText.cleaned(note, keeping: TerminalText.lineBreaksAndTabs) + "\n",
      to: 2)
  }

  /// Writes `text`, the command's result, to standard output and exits: 0 when it was all
  /// written, else 1 with the full program's `CommandFailure.unwritableOutput` line (a token
  /// a full disk refused was not delivered). EPIPE, where SIGPIPE is ignored, exits 0 as the
  /// full program does: the reader chose to stop reading.
  static func deliver(_ text: String) -> Never {
    let error = write(text, to: 1)
    guard error != 0, error != EPIPE else { exit(0) }
    let failure = CommandFailure.unwritableOutput(errorNumber: error)
    write(failure.line + "\n", to: 2)
    exit(failure.exitStatus)
  }
}
