import Dispatch

/// A serial executor backed by its own dispatch queue, for actors whose work blocks.
///
/// The vault's work blocks (scrypt holds a thread for half a second; SQLite sleeps in its busy
/// handler while another process writes), and so do the sandbox's engine and tests that wait on
/// child processes. On the two-thread cooperative pool that would stall every other task of the
/// program, the UI among them; on a queue of its own it stalls nothing but that actor, whose
/// requests are serial anyway. Isolation still comes from the actor: this only says where its
/// jobs run.
///
/// ```swift
/// actor Store {
///   private let executor = QueueExecutor(label: "store")
///   nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
/// }
/// ```
public final class QueueExecutor: SerialExecutor {
  /// The queue the actor's jobs run on, one at a time.
  public let queue: DispatchQueue

  /// An executor on a new serial queue called `label`.
  public init(label: String) {
    queue = DispatchQueue(label: label)
  }

  /// A task executor on this same queue: a task that prefers it runs its nonisolated code (and
  /// any default actor's it calls) one job at a time with this actor's, and goes into the actor
  /// and out again without handing itself to another thread.
  public func sharingTaskExecutor() -> QueueTaskExecutor {
    QueueTaskExecutor(queue: queue)
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let unowned = UnownedJob(job)
    let executor = asUnownedSerialExecutor()
    queue.async { unowned.runSynchronously(on: executor) }
  }
}

/// A task executor on a new serial dispatch queue: a task that prefers it runs its nonisolated
/// code there, not on the cooperative pool.
///
/// For work that must not wait its turn behind the rest of the program: under load the pool's
/// queue can be tens of seconds long (a parallel test run on two cores), and a loopback
/// server's answer queued there came after its client had given up. A serial queue of its own
/// gets a thread as soon as it has work (dispatch's overcommit pool). Actors it calls still
/// run where they always run.
///
/// ```swift
/// Task(executorPreference: QueueTaskExecutor(label: "answer")) { await answer(request) }
/// ```
public final class QueueTaskExecutor: TaskExecutor {
  private let queue: DispatchQueue

  /// An executor on a new serial queue called `label`.
  public init(label: String) {
    queue = DispatchQueue(label: label)
  }

  /// An executor on `queue`, which runs an actor's jobs too (`sharingTaskExecutor`).
  fileprivate init(queue: DispatchQueue) {
    self.queue = queue
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let unowned = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    queue.async { unowned.runSynchronously(on: executor) }
  }
}
