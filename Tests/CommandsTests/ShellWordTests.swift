import Spelling
import TestSupport
import Testing

/// `MessageQuoting.shellWord`, the one quoting of every command a message tells the user to
/// run: plain words stay as they are, and a POSIX shell reads every quoted one back as written.
@Suite struct ShellWordTests {
  @Test func aShellReadsEveryWordBackAsWritten() async throws {
    let cases: [(String, String, String)] = [
      ("alice", "", "alice"),
      ("josé.o-k@x+1", "", "josé.o-k@x+1"),
      ("it's", "", #"'it'\''s'"#),
      ("two words", "", "'two words'"),
      ("", "", "''"),
      ("https://id.example.com/a?b=c&d", ":/~%=,", "'https://id.example.com/a?b=c&d'"),
      ("https://git.example.com/team", ":/~%=,", "https://git.example.com/team"),
      ("$(touch x)`y`", "", "'$(touch x)`y`'"),
    ]
    for (text, keeping, expected) in cases {
      let word = MessageQuoting.shellWord(text, keeping: keeping)
      #expect(word == expected)
      let echoed = try await ChildProcess.run("/bin/sh", ["-c", "printf '%s' " + word])
      #expect(echoed.stdout == text, "\(word)")
    }
  }
}
