import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui help --man`: the manual page from the command table, rendered by the real man(1).
@Suite struct ManPageTests {
  @Test(.enabled(if: access("/usr/bin/man", X_OK) == 0, "man-db is not installed"))
  func rendersWithoutAWarningAndDocumentsEveryCommand() async throws {
    let folder = try TemporaryDirectory()
    let page = try await ChildProcess.run(
      Products.authtui, ["help", "--man"],
      environment: ChildProcess.environment(["SOURCE_DATE_EPOCH": "1764547200"]))
    #expect(page.status == 0)
    #expect(page.stdout.hasPrefix(#".TH AUTHTUI 1 "2025-12-01" "authtui "#))
    let path = try folder.write(page.stdout, to: "authtui.1")
    let rendered = try await ChildProcess.run(
      "/usr/bin/man", ["--warnings", "-l", path],
      environment: ChildProcess.environment([
        "MANWIDTH": "80", "MAN_DISABLE_SECCOMP": "1", "MANPAGER": "cat", "PAGER": "cat",
      ]))
    #expect(rendered.status == 0)
    #expect(rendered.stderr.isEmpty, "man warned: \(rendered.stderr)")
    let help = try await ChildProcess.run(Products.authtui, ["--help"])
    let commands = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
      .drop { $0 != "Commands:" }.dropFirst()
      .prefix { !$0.isEmpty }
      // A summary too long for its line goes on under itself, indented further.
      .filter { !$0.hasPrefix("   ") }
      .compactMap { $0.split(separator: " ").first.map(String.init) }
    #expect(commands.count >= 10)
    for command in commands {
      #expect(rendered.stdout.contains("authtui \(command)"), "\(command) is not in the page")
    }
    #expect(rendered.stdout.contains("--min-valid SECONDS"))
    #expect(rendered.stdout.contains("EXIT STATUS"))
    #expect(rendered.stdout.contains("ENVIRONMENT"))
    #expect(rendered.stdout.contains("AUTHTUI_PASSPHRASE_COMMAND"))
    #expect(rendered.stdout.contains("The account needs a new sign-in"))
  }
}
