import Dispatch

/// A serial executor on a dispatch queue of its own: the sandbox's state actor runs there, so
/// making an RSA key or signing an id_token never occupies the (two-thread) cooperative pool
/// that every other task of the process shares.
final class QueueExecutor: SerialExecutor {
  let queue: DispatchQueue

  init(label: String) {
    queue = DispatchQueue(label: label)
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let unowned = UnownedJob(job)
    let executor = asUnownedSerialExecutor()
    queue.async { unowned.runSynchronously(on: executor) }
  }
}
