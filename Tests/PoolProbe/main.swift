// A child process that holds every thread of its own cooperative pool, then starts a loopback
// server and asks it one request, for LoopbackServerTests. In a process of its own, no other
// test's work is queued on the pool, so the threads are held at once, and holding them stalls
// no one else.
//
//   LoopbackPoolProbe    prints "status=S full=F body=B" (F: no other task ran meanwhile),
//                        or "setup: WHY" and exits 2
import Foundation
import Isolation
import Loopback

#if canImport(Glibc)
  import Glibc
#endif

/// A pipe that passes single bytes between threads, blocking the reader until one arrives:
/// how threads are held without a lock.
final class BytePipe: Sendable {
  private let read: Int32
  private let write: Int32

  init() {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { setUpFailed("no pipe") }
    (read, write) = (fds[0], fds[1])
  }

  func put() {
    var byte: UInt8 = 1
    _ = Glibc.write(write, &byte, 1)
  }

  /// Takes a byte, waiting for one as long as it takes (the test bounds the whole probe).
  func take() {
    var byte: UInt8 = 0
    while Glibc.read(read, &byte, 1) < 0 && errno == EINTR {}
  }

  /// Whether a byte was waiting; takes it, without waiting for one.
  func tookWaitingByte() -> Bool {
    _ = fcntl(read, F_SETFL, fcntl(read, F_GETFL) | O_NONBLOCK)
    var byte: UInt8 = 0
    return Glibc.read(read, &byte, 1) == 1
  }
}

func setUpFailed(_ why: String) -> Never {
  print("setup: \(why)")
  exit(2)
}

/// The cooperative pool's width, or more: the larger of the CPUs online and the CPUs this
/// process may run on (`Cpus_allowed_list` in /proc/self/status, "0-1" or "0,2-3"), as the
/// runtime and libdispatch may count either. A blocker more than the pool holds waits for a
/// thread dispatch adds, and then holds that one too.
func poolWidth() -> Int {
  let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
  let line = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }
  let ranges = line?.dropFirst("Cpus_allowed_list:".count).split(separator: ",").map {
    $0.split(separator: "-").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
  }
  let count = ranges?.reduce(0) { total, range in
    total + (range.count == 2 ? range[1] - range[0] + 1 : range.count)
  }
  return max(count ?? 0, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}

let width = poolWidth()
let started = BytePipe()
let release = BytePipe()
let probe = BytePipe()
for _ in 0..<width {
  Task.detached {
    started.put()
    release.take()
  }
}
for _ in 0..<width { started.take() }
Task.detached { probe.put() }
let server: LoopbackServer
do {
  server = try LoopbackServer(configuration: .callback) { request in
    .text("you asked for \(request.path)", status: 200)
  }
} catch {
  setUpFailed("no server: \(error)")
}
let response = LoopbackHTTP.request("GET", "/busy", port: server.port, timeout: 10)
print("status=\(response.status) full=\(!probe.tookWaitingByte()) body=\(response.body)")
exit(0)
