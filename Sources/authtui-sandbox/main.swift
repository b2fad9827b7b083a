import Dispatch
import Foundation
import Sandbox

// authtui-sandbox [--listen 127.0.0.1:PORT] [--simkl-redirect-uri URI]… [--quiet] [--log-times]
// The sandbox provider in the foreground. The first line on stdout is always
// "authtui-sandbox listening on http://127.0.0.1:PORT" (scripts wait for it); one line per
// request goes to stderr (method, path, status: never a code or token), with --log-times
// after the Unix time its answer was ready (Benchmarks/signin times a sign-in from the
// approval with it). SIGINT or SIGTERM stops it cleanly with status 0.

func fail(_ message: String, status: Int32) -> Never {
  FileHandle.standardError.write(Data("authtui-sandbox: \(message)\n".utf8))
  exit(status)
}

let usage = """
  usage: authtui-sandbox [--listen 127.0.0.1:PORT] [--simkl-redirect-uri URI]... [--quiet]
                         [--log-times]

    --listen 127.0.0.1:PORT     where to listen (default 127.0.0.1:0, a free port)
    --simkl-redirect-uri URI    a redirect URI registered for Simkl's sandbox-client, matched
                                byte for byte (repeatable; default \
  \(SandboxConfiguration.defaultSimklRedirectURI))
    --quiet                     no request log on stderr
    --log-times                 start each request log line with the Unix time, in seconds
                                to the microsecond, at which its answer was ready
    --write-providers DIR       also write authtui provider files pointing at this sandbox
                                into DIR (e.g. CONFIG/providers), with Simkl's and Muhajir's
                                redirect port from the first --simkl-redirect-uri (else 8765)

  Profiles: /simkl-web/ and /simkl-api/, /hivesigner/, /muhajir/, /oidc/ (client id
  sandbox-client). Test hooks under /_sandbox/: see docs/testing.md, "Sandbox provider".
  """

struct Options {
  var address = ListenAddress(port: 0)
  var simklRedirectURIs: [String] = []
  var quiet = false
  var logTimes = false
  var providersDirectory: String?
}

func parse(_ arguments: [String]) -> Options {
  var options = Options()
  var remaining = arguments[...]
  func value(after option: String) -> String {
    guard let value = remaining.popFirst() else {
      fail("\(option) needs a value\n\(usage)", status: 2)
    }
    return value
  }
  while let argument = remaining.popFirst() {
    switch argument {
    case "--listen":
      let text = value(after: argument)
      do {
        options.address = try ListenAddress(parsing: text)
      } catch {
        fail("\(error)", status: 2)
      }
    case "--simkl-redirect-uri":
      options.simklRedirectURIs.append(value(after: argument))
    case "--quiet":
      options.quiet = true
    case "--log-times":
      options.logTimes = true
    case "--write-providers":
      options.providersDirectory = value(after: argument)
    case "--help", "-h":
      FileHandle.standardOutput.write(Data((usage + "\n").utf8))
      exit(0)
    default:
      fail("unknown argument '\(argument)'\n\(usage)", status: 2)
    }
  }
  return options
}

signal(SIGPIPE, SIG_IGN)
let (terminations, signalSources) = terminationSignals()
let options = parse(Array(CommandLine.arguments.dropFirst()))

/// SIGINT and SIGTERM as a stream of events instead of a kill, so the server can close its
/// port before the process exits. Nonisolated, so the handlers belong to no actor: they run
/// on a queue of their own. The sources must be kept alive as long as the stream is read.
/// Until libdispatch has registered them (its handler and a `signalfd`), a signal has its
/// default action and ends the process: never `SIG_IGN` meanwhile, which would lose it.
nonisolated func terminationSignals() -> (AsyncStream<Int32>, [any DispatchSourceSignal]) {
  let (stream, continuation) = AsyncStream<Int32>.makeStream()
  let queue = DispatchQueue(label: "authtui-sandbox.signals")
  let sources = [SIGINT, SIGTERM].map { number in
    let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
    source.setEventHandler { continuation.yield(number) }
    source.resume()
    return source
  }
  return (stream, sources)
}

var configuration = SandboxConfiguration()
if !options.simklRedirectURIs.isEmpty {
  configuration.simklRedirectURIs = options.simklRedirectURIs
}
if !options.quiet {
  let logTimes = options.logTimes
  configuration.requestLog = { line in
    // The wall clock, not the sandbox's (which a test may move): scripts compare it with theirs.
    let time = logTimes ? String(format: "%.6f ", Date().timeIntervalSince1970) : ""
    FileHandle.standardError.write(Data("\(time)authtui-sandbox: \(line)\n".utf8))
  }
}

// Before listening: a client's first token request then never waits for an RSA key.
do {
  configuration.signingKeys = try SandboxConfiguration.freshSigningKeys()
} catch {
  fail("cannot make the signing keys: \(error)", status: 1)
}

let server: SandboxServer
do {
  server = try await SandboxServer.start(address: options.address, configuration: configuration)
} catch {
  fail("\(error)", status: 1)
}
if let directory = options.providersDirectory {
  let redirect = URL(string: configuration.simklRedirectURIs.first ?? "")
  do {
    try SandboxProviderFiles.write(
      to: URL(fileURLWithPath: directory), baseURL: server.baseURL,
      redirectPort: UInt16(redirect?.port ?? 8765))
  } catch {
    fail("cannot write provider files into \(directory): \(error)", status: 1)
  }
}
// Written straight to the file descriptor, so it is never held in a buffer.
FileHandle.standardOutput.write(Data("authtui-sandbox listening on \(server.baseURL)\n".utf8))

for await _ in terminations { break }
await server.stop()
withExtendedLifetime(signalSources) {}
exit(0)
