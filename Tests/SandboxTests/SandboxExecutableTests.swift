import Foundation
import Loopback
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The `authtui-sandbox` binary: its first line, its options, and a clean stop on a signal.
@Suite struct SandboxExecutableTests {
  /// Starts the binary and returns it with the port its first line names.
  func start(_ arguments: [String] = []) async throws -> (RunningChild, UInt16) {
    let process = try RunningChild(Products.sandbox, ["--quiet"] + arguments)
    let line = try #require(await process.nextLine(timeout: 60))
    let prefix = "authtui-sandbox listening on http://127.0.0.1:"
    #expect(line.hasPrefix(prefix))
    let port = try #require(UInt16(line.dropFirst(prefix.count)))
    return (process, port)
  }

  @Test func firstLineNamesThePortAndSIGTERMStopsItCleanly() async throws {
    let (process, port) = try await start()
    let discovery = await RawHTTPClient.request(
      "GET", "/oidc/.well-known/openid-configuration", port: port)
    #expect(discovery["issuer"] == "http://127.0.0.1:\(port)/oidc")
    await process.kill(SIGTERM)
    #expect(await process.wait(timeout: 60) == 0)
    #expect(await RawHTTPClient.request("GET", "/", port: port).status == 0)
  }

  @Test func sigintStopsItCleanlyToo() async throws {
    let (process, _) = try await start()
    await process.kill(SIGINT)
    #expect(await process.wait(timeout: 60) == 0)
  }

  @Test func listensOnTheAskedPortAndRegistersTheGivenSimklRedirectURI() async throws {
    // A port outside the ephemeral range: one the kernel chose could be given to another
    // test's outgoing connection between the two sandboxes. Other tests pick such ports too,
    // so one may take it between the pick and the listen: then another port is tried.
    var started: (RunningChild, UInt16)?
    for _ in 0..<5 where started == nil {
      let fixed = try #require(LoopbackServer.freeFixedPort())
      let process = try RunningChild(
        Products.sandbox, ["--quiet", "--listen", "127.0.0.1:\(fixed)"])
      if let line = await process.nextLine(timeout: 60) {
        #expect(line == "authtui-sandbox listening on http://127.0.0.1:\(fixed)")
        started = (process, fixed)
      }
    }
    let (first, port) = try #require(started, "no fixed port could be listened on in 5 tries")
    await first.kill(SIGTERM)
    _ = await first.wait(timeout: 60)
    let uri = "http://127.0.0.1:4567/callback"
    let (process, samePort) = try await start([
      "--listen", "127.0.0.1:\(port)", "--simkl-redirect-uri", uri,
    ])
    #expect(samePort == port)
    let settings = await RawHTTPClient.request("GET", "/_sandbox/settings", port: port)
    let simkl = try #require(settings.json?["simkl"] as? [String: Any])
    #expect(simkl["redirect_uris"] as? [String] == [uri])
    await process.kill(SIGTERM)
    #expect(await process.wait(timeout: 60) == 0)
  }

  @Test func refusesAListenAddressOffLoopbackWithUsageStatus() async throws {
    let result = try await ChildProcess.run(Products.sandbox, ["--listen", "0.0.0.0:80"])
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("--listen takes 127.0.0.1:PORT"))
  }

  @Test func printsUsageWithHelp() async throws {
    let result = try await ChildProcess.run(Products.sandbox, ["--help"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("--simkl-redirect-uri URI"))
  }

  @Test func logsOneLinePerRequestWithoutQueries() async throws {
    let process = try RunningChild(Products.sandbox)
    let line = try #require(await process.nextLine(timeout: 60))
    let port = try #require(UInt16(line.split(separator: ":").last ?? ""))
    _ = await RawHTTPClient.request("GET", "/oidc/authorize?code_challenge=secret-ish", port: port)
    await process.kill(SIGTERM)
    #expect(await process.wait(timeout: 60) == 0)
    let errors = await process.standardError()
    #expect(errors.contains("authtui-sandbox: GET /oidc/authorize 400"))
    #expect(!errors.contains("secret-ish"))
  }

  @Test func logTimesStartsEachLineWithTheUnixTimeItsAnswerWasReady() async throws {
    let before = Date().timeIntervalSince1970
    let process = try RunningChild(Products.sandbox, ["--log-times"])
    let line = try #require(await process.nextLine(timeout: 60))
    let port = try #require(UInt16(line.split(separator: ":").last ?? ""))
    #expect(await RawHTTPClient.request("GET", "/", port: port).status == 200)
    let after = Date().timeIntervalSince1970
    await process.kill(SIGTERM)
    #expect(await process.wait(timeout: 60) == 0)
    let logged = await process.standardError().split(separator: "\n")
    #expect(logged.count == 1)
    let fields = try #require(logged.first).split(separator: " ", maxSplits: 1)
    #expect(fields.last == "authtui-sandbox: GET / 200")
    let stamp = try #require(fields.first)
    #expect(stamp.split(separator: ".").last?.count == 6)
    let time = try #require(Double(stamp))
    // Between the start and the answer, give or take the rounding to the microsecond.
    #expect(time > before - 0.001 && time < after + 0.001)
  }
}

extension SandboxExecutableTests {
  @Test func restartsOnTheSameFixedPortRightAfterServingAndRefusesABusyOne() async throws {
    let (first, port) = try await start()
    // A served request leaves the port in TIME_WAIT on the sandbox's side.
    #expect(await RawHTTPClient.request("GET", "/", port: port).status == 200)
    await first.kill(SIGTERM)
    #expect(await first.wait(timeout: 60) == 0)
    let (second, samePort) = try await start(["--listen", "127.0.0.1:\(port)"])
    #expect(samePort == port)
    let busy = try await ChildProcess.run(Products.sandbox, ["--listen", "127.0.0.1:\(port)"])
    #expect(busy.status == 1)
    #expect(busy.stdout.isEmpty)
    #expect(
      busy.stderr
        == "authtui-sandbox: port \(port) on 127.0.0.1 is already in use; find the program with "
        + "`ss -ltnp 'sport = :\(port)'` and stop it, or pick another port with "
        + "--listen 127.0.0.1:PORT (0 picks a free one)\n")
    await second.kill(SIGTERM)
    #expect(await second.wait(timeout: 60) == 0)
  }
}

extension SandboxExecutableTests {
  @Test func writesProviderFilesPointingAtItselfBeforeItsFirstLine() async throws {
    let folder = try TemporaryDirectory()
    let directory = folder.file("config/providers")
    let (process, port) = try await start([
      "--write-providers", directory, "--simkl-redirect-uri", "http://127.0.0.1:4567/callback",
    ])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        == [
          "github.json", "gitlab.json", "google.json", "hivesigner.json", "microsoft.json",
          "muhajir.json", "sandbox.json", "simkl.json", "work-gitlab.json",
        ])
    let gitlab = try String(contentsOfFile: directory + "/gitlab.json", encoding: .utf8)
    #expect(gitlab.contains("\"issuer\" : \"http://127.0.0.1:\(port)/gitlab\""))
    let simkl = try String(contentsOfFile: directory + "/simkl.json", encoding: .utf8)
    #expect(simkl.contains("\"client_id\" : \"sandbox-client\""))
    #expect(simkl.contains("\"redirect_port\" : 4567"))
    #expect(
      simkl.contains("\"token_endpoint\" : \"http://127.0.0.1:\(port)/simkl-api/oauth/token\""))
    let sandbox = try String(contentsOfFile: directory + "/sandbox.json", encoding: .utf8)
    #expect(sandbox.contains("\"issuer\" : \"http://127.0.0.1:\(port)/oidc\""))
    await process.kill(SIGTERM)
    #expect(await process.wait(timeout: 60) == 0)
  }
}
