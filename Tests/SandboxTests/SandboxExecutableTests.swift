import Foundation
import TestSupport
import Testing

@Suite struct SandboxExecutableTests {
  @Test func printsUsageWithHelp() async throws {
    let result = try await ChildProcess.run(Products.sandbox, ["--help"], timeout: 10)
    #expect(result.status == 0)
    #expect(result.stdout.contains("--simkl-redirect-uri"))
  }
}
