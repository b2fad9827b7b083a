#if canImport(Glibc)
  import Glibc
#endif

/// Runs blocking `work` on a thread of its own and hands its result back to the awaiting task.
///
/// The one bridge from blocking calls (a read of the terminal, `poll(2)` on a socket, a child
/// process's pipes, RSA key generation) to async code. The cooperative pool is as wide as the
/// machine has cores, two here: a blocking call made on it stalls every other task of the
/// program, loopback servers' answers and the UI among them (PLATFORM.md). A new thread costs
/// tens of microseconds, nothing beside the calls it is used for.
///
/// ```swift
/// let answer = await onOwnThread(named: "agent-client") { askBlocking(request) }
/// ```
public func onOwnThread<Value: Sendable>(
  named name: String? = nil, _ work: @escaping @Sendable () -> Value
) async -> Value {
  await withCheckedContinuation { continuation in
    let body: @Sendable () -> Void = { continuation.resume(returning: work()) }
    // At the process's thread limit the work runs here, on the caller's thread: late is
    // better than never.
    if startThread(named: name, body) != 0 { body() }
  }
}

/// Starts `work` on a thread of its own now and returns what to await for its end.
///
/// Unlike `onOwnThread` called from a new task, nothing waits for a turn on the cooperative
/// pool before the work starts: under load that turn can come tens of seconds late (once, the
/// loopback servers of a parallel test run started only after their clients had given up).
///
/// Throws when no thread can be made (the process is at its thread limit): `work` (a server's
/// loop, say) would otherwise have to run on the caller's thread and never return.
///
/// ```swift
/// let end = try startOwnThread(named: "server") { loop.run() }
/// await end.wait()
/// ```
public func startOwnThread(named name: String? = nil, _ work: @escaping @Sendable () -> Void)
  throws(ThreadStartError) -> ThreadEnd
{
  let end = ThreadEnd()
  let code = startThread(named: name) {
    work()
    // The news of the end does not wait for the pool either.
    Task(executorPreference: QueueTaskExecutor(label: "authtui-thread-end")) {
      await end.finish()
    }
  }
  guard code == 0 else { throw ThreadStartError(code: code) }
  return end
}

/// No thread could be made: `pthread_create`'s error number (EAGAIN at the thread limit).
public struct ThreadStartError: Error, Equatable, Sendable {
  public let code: Int32
}

/// The end of a thread started by `startOwnThread`, for any number of tasks to await.
public actor ThreadEnd {
  private var ended = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  fileprivate init() {}

  /// Returns once the thread's work has returned (at once if it has).
  public func wait() async {
    guard !ended else { return }
    await withCheckedContinuation { waiting.append($0) }
  }

  fileprivate func finish() {
    ended = true
    for continuation in waiting { continuation.resume() }
    waiting = []
  }
}

/// What a new thread runs, and its name.
private final class ThreadStart: Sendable {
  let name: String?
  let body: @Sendable () -> Void

  init(name: String?, body: @escaping @Sendable () -> Void) {
    self.name = name
    self.body = body
  }
}

/// Runs `body` on a new detached POSIX thread called `name`; returns 0, or `pthread_create`'s
/// error when no thread could be made (and `body` was not run). Not Foundation's `Thread`: that
/// would link all of Foundation, CoreFoundation's start-up included, into every program using
/// this module, the front of `authtui` among them.
private func startThread(named name: String?, _ body: @escaping @Sendable () -> Void) -> Int32 {
  let start = Unmanaged.passRetained(ThreadStart(name: name, body: body)).toOpaque()
  var attributes = pthread_attr_t()
  pthread_attr_init(&attributes)
  defer { pthread_attr_destroy(&attributes) }
  pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
  var thread = pthread_t()
  let created = pthread_create(
    &thread, &attributes,
    { argument in
      guard let argument else { return nil }
      let start = Unmanaged<ThreadStart>.fromOpaque(argument).takeRetainedValue()
      if let name = start.name { nameThisThread(name) }
      start.body()
      return nil
    }, start)
  if created != 0 { Unmanaged<ThreadStart>.fromOpaque(start).release() }
  return created
}

/// `onOwnThread` for work that throws: the error reaches the awaiting task, typed.
public func onOwnThread<Value: Sendable, Failure: Error>(
  named name: String? = nil, _ work: @escaping @Sendable () throws(Failure) -> Value
) async throws(Failure) -> Value {
  try await onOwnThread(named: name) { Result(catching: work) }.get()
}

/// Names the calling thread for `ps -L` and debuggers (at most 15 bytes show), through
/// `/proc/thread-self/comm`: Glibc's `pthread_setname_np` does not reach Swift.
private func nameThisThread(_ name: String) {
  let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
  guard fd >= 0 else { return }
  defer { close(fd) }
  let bytes = Array(name.utf8.prefix(15))
  _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}
