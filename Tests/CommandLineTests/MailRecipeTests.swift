import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The msmtp recipe of docs/scripting.md, run with the real msmtp: `passwordeval "authtui token …"` and
/// `auth xoauth2`, against an SMTP server that takes nothing but the account's current token.
@Suite struct MailRecipeTests {
  static let msmtp: String? = ["/usr/bin/msmtp", "/bin/msmtp"].first { (path: String) in
    access(path, X_OK) == 0
  }

  /// msmtp's configuration as docs/scripting.md gives it, for the server on `port` (no TLS here:
  /// the test server is plain loopback).
  static func configuration(port: UInt16) -> String {
    """
    defaults
    tls off
    logfile -

    account work
    host 127.0.0.1
    port \(port)
    auth xoauth2
    user alice@example.com
    from alice@example.com
    passwordeval "authtui token sandbox/alice"

    account default : work

    """
  }

  static func send(_ cli: CLIHarness, port: UInt16) async throws -> ChildProcess.Result {
    let path = try cli.folder.write(configuration(port: port), to: "msmtprc")
    // msmtp refuses a configuration file others can read.
    #expect(chmod(path, 0o600) == 0)
    var environment = cli.environment
    environment["PATH"] = Products.directory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    let message =
      "Subject: hello\nFrom: alice@example.com\nTo: bob@example.com\n\nsent with a token\n"
    return try await ChildProcess.run(
      msmtp ?? "msmtp", ["-C", path, "bob@example.com"], environment: environment,
      input: message, timeout: 90)
  }

  @Test(.enabled(if: msmtp != nil, "msmtp is not installed (.ci/run installs it)"))
  func msmtpSendsWithTheCurrentTokenThroughPasswordeval() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let token = try #require(try await cli.storedToken("sandbox", "alice"))
    let server = try FakeSMTPServer()
    let session = Task { await server.serveOne(expecting: token) }
    let sent = try await Self.send(cli, port: server.port)
    let seen = await session.value
    #expect(sent.status == 0, "msmtp: \(sent.stderr)")
    #expect(seen.user == "alice@example.com")
    #expect(seen.token == token)
    #expect(seen.authenticated)
    #expect(seen.message?.contains("sent with a token") == true)
    await cli.stop()
  }

  @Test(.enabled(if: msmtp != nil, "msmtp is not installed (.ci/run installs it)"))
  func aServerThatWantsAnotherTokenRefusesAndMsmtpSaysSo() async throws {
    let cli = try await CLIHarness.start()
    try await cli.login("sandbox")
    let server = try FakeSMTPServer()
    let session = Task { await server.serveOne(expecting: "some other token") }
    let sent = try await Self.send(cli, port: server.port)
    let seen = await session.value
    #expect(sent.status != 0)
    #expect(!seen.authenticated)
    #expect(seen.message == nil)
    await cli.stop()
  }
}
