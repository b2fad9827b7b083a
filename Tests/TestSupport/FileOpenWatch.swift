import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Records, through inotify, whether files were opened while watched: how a test proves that a
/// command never read a file (the kernel queues the event before `open` returns, so the answer
/// depends on no timing). `stat` and directory listings do not count as opening.
public final class FileOpenWatch: Sendable {
  private let descriptor: Int32
  private let paths: [Int32: String]

  /// Starts watching `paths` (which must exist; a FIFO or a directory may be watched too).
  public init(_ paths: [String]) throws {
    descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard descriptor >= 0 else { throw WorkspaceError("inotify_init1 failed: errno \(errno)") }
    var watches: [Int32: String] = [:]
    for path in paths {
      let watch = inotify_add_watch(descriptor, path, UInt32(IN_OPEN | IN_DONT_FOLLOW))
      guard watch >= 0 else {
        close(descriptor)
        throw WorkspaceError("cannot watch \(path): errno \(errno)")
      }
      watches[watch] = path
    }
    self.paths = watches
  }

  deinit { close(descriptor) }

  /// The watched paths that were opened since the last call (or since the watch began).
  public func openedPaths() -> Set<String> {
    var opened: Set<String> = []
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { return opened }
      var offset = 0
      let header = MemoryLayout<inotify_event>.size
      while offset + header <= count {
        let event = buffer.withUnsafeBytes {
          $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
        }
        if event.mask & UInt32(IN_OPEN) != 0, let path = paths[event.wd] { opened.insert(path) }
        offset += header + Int(event.len)
      }
    }
  }
}

/// Runs blocking work on its own thread and waits for it at most `seconds`: nil when it has
/// not returned by then (it is left blocked). For tests of code that must never block, such as
/// reading a FIFO; the bound only matters when the test fails.
public func finishing<Value: Sendable>(
  within seconds: Double, _ body: @escaping @Sendable () -> Value
) async -> Value? {
  let (results, continuation) = AsyncStream<Value?>.makeStream()
  Thread { continuation.yield(body()) }.start()
  let timer = Task {
    try? await Task.sleep(for: .seconds(seconds))
    continuation.yield(nil)
  }
  defer { timer.cancel() }
  for await result in results { return result }
  return nil
}
