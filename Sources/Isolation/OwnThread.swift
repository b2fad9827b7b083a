import Foundation

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
    let thread = Thread { continuation.resume(returning: work()) }
    if let name { thread.name = name }
    thread.start()
  }
}

/// `onOwnThread` for work that throws: the error reaches the awaiting task, typed.
public func onOwnThread<Value: Sendable, Failure: Error>(
  named name: String? = nil, _ work: @escaping @Sendable () throws(Failure) -> Value
) async throws(Failure) -> Value {
  try await onOwnThread(named: name) { Result(catching: work) }.get()
}
