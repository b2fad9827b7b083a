// Many callers at once on a Unix socket, as an agent sees a burst of `authtui token` calls
// (Benchmarks/token), and the baseline they are measured against: a server that does nothing
// but answer.
//
//   AgentBurst call SOCKET COUNT REQUEST   COUNT threads, released together by one barrier;
//       each connects to SOCKET, sends REQUEST and a newline, and reads to the answer's
//       newline, timed from just before its connect to the end of the answer. Prints the
//       median, the 99th percentile and the slowest in milliseconds ("p50 p99 max"); exits 1
//       if an answer does not say `"ok":true`.
//   AgentBurst serve SOCKET < ANSWER       answers every connection on SOCKET with the first
//       line of its standard input (an agent's answer: it may hold a token, so not an argument)
//       once the request's newline has arrived, one connection at a time on one thread (the
//       least a server can do), until it is killed.
//
// Written against Glibc alone, with a thread per caller: a caller's own cost is a connect, a
// send and a receive, so the figure is the server's (a Python caller's interpreter lock made
// the harness slower than the servers it timed).
#if canImport(Glibc)
  import Glibc
#endif

/// Writes `text` to standard error.
func printError(_ text: String) {
  let bytes = Array(text.utf8)
  _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// Prints `message` to standard error and exits with status 2.
func fail(_ message: String) -> Never {
  printError("AgentBurst: \(message)\n")
  exit(2)
}

/// Nanoseconds on the monotonic clock.
func now() -> Int {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return time.tv_sec * 1_000_000_000 + time.tv_nsec
}

/// A Unix stream socket's address for `path`.
func address(_ path: String) -> sockaddr_un {
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  let bytes = Array(path.utf8)
  let capacity = MemoryLayout.size(ofValue: address.sun_path)
  guard bytes.count < capacity else { fail("socket path too long: \(path)") }
  withUnsafeMutableBytes(of: &address.sun_path) { raw in
    raw.copyBytes(from: bytes)
    raw[bytes.count] = 0
  }
  return address
}

/// Sends all of `bytes` on `socket`; false if the connection failed.
func sendAll(_ socket: Int32, _ bytes: [UInt8]) -> Bool {
  var sent = 0
  while sent < bytes.count {
    let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
    if count < 0 && errno == EINTR { continue }
    guard count > 0 else { return false }
    sent += count
  }
  return true
}

/// Reads from `socket` until a newline or the end; the bytes read.
func receiveLine(_ socket: Int32) -> [UInt8] {
  var received: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while received.last != UInt8(ascii: "\n") {
    let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
    if count < 0 && errno == EINTR { continue }
    guard count > 0 else { break }
    received += chunk[0..<count]
  }
  return received
}

/// What one caller's thread needs, and where it leaves its time (nanoseconds; -1 on failure).
final class Caller: @unchecked Sendable {
  let path: String
  let request: [UInt8]
  let barrier: UnsafeMutablePointer<pthread_barrier_t>
  var elapsed = -1
  var answer: [UInt8] = []

  init(path: String, request: [UInt8], barrier: UnsafeMutablePointer<pthread_barrier_t>) {
    self.path = path
    self.request = request
    self.barrier = barrier
  }

  func run() {
    var target = address(path)
    pthread_barrier_wait(barrier)
    let start = now()
    let connection = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard connection >= 0 else { return }
    defer { close(connection) }
    let connected = withUnsafePointer(to: &target) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(connection, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0, sendAll(connection, request) else { return }
    answer = receiveLine(connection)
    elapsed = now() - start
  }
}

func call(path: String, count: Int, request: String) -> Never {
  guard count > 0 else { fail("COUNT must be a positive number") }
  let barrier = UnsafeMutablePointer<pthread_barrier_t>.allocate(capacity: 1)
  pthread_barrier_init(barrier, nil, UInt32(count))
  let callers = (0..<count).map { _ in
    Caller(path: path, request: Array((request + "\n").utf8), barrier: barrier)
  }
  var threads: [pthread_t] = []
  for caller in callers {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(caller).toOpaque()
    let started = pthread_create(
      &thread, nil,
      { context in
        guard let context else { return nil }
        let caller = Unmanaged<Caller>.fromOpaque(context).takeRetainedValue()
        caller.run()
        return nil
      }, context)
    guard started == 0 else { fail("cannot start a thread (\(started))") }
    threads.append(thread)
  }
  for thread in threads { pthread_join(thread, nil) }
  let failed = callers.filter { $0.elapsed < 0 || !isOK($0.answer) }
  if let first = failed.first {
    let shown = String(decoding: first.answer.prefix(200), as: UTF8.self)
    printError("AgentBurst: \(failed.count) of the \(count) calls failed: \(shown)\n")
    exit(1)
  }
  let times = callers.map(\.elapsed).sorted()
  let milliseconds = { (nanoseconds: Int) in Double(nanoseconds) / 1e6 }
  let percentile = times[min(times.count - 1, times.count * 99 / 100)]
  print(
    formatted(milliseconds(times[times.count / 2])), formatted(milliseconds(percentile)),
    formatted(milliseconds(times[times.count - 1])))
  exit(0)
}

/// Whether `answer` says `"ok":true` (the agent's answers and the baseline's are compact JSON).
func isOK(_ answer: [UInt8]) -> Bool {
  let ok = Array(#""ok":true"#.utf8)
  guard answer.count >= ok.count else { return false }
  return (0...(answer.count - ok.count)).contains { answer[$0..<$0 + ok.count].elementsEqual(ok) }
}

/// `value` with two decimals.
func formatted(_ value: Double) -> String {
  let hundredths = Int((value * 100).rounded())
  let fraction = hundredths % 100
  return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}

func serve(path: String) -> Never {
  guard let answer = readLine(), !answer.isEmpty else { fail("no answer on standard input") }
  let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
  guard listener >= 0 else { fail("cannot make a socket") }
  unlink(path)
  var local = address(path)
  let bound = withUnsafePointer(to: &local) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
  guard bound == 0, listen(listener, 512) == 0 else { fail("cannot listen on \(path)") }
  print("listening")
  fflush(nil)
  let reply = Array((answer + "\n").utf8)
  while true {
    let connection = accept(listener, nil, nil)
    guard connection >= 0 else { continue }
    _ = receiveLine(connection)
    _ = sendAll(connection, reply)
    close(connection)
  }
}

let arguments = CommandLine.arguments
switch (arguments.count, arguments.count > 1 ? arguments[1] : "") {
case (5, "call"):
  call(path: arguments[2], count: Int(arguments[3]) ?? 0, request: arguments[4])
case (3, "serve"):
  serve(path: arguments[2])
default:
  fail("usage: AgentBurst call SOCKET COUNT REQUEST | AgentBurst serve SOCKET < ANSWER")
}
