import Dispatch

/// A serial executor backed by its own dispatch queue.
///
/// The vault's work blocks: scrypt holds a thread for half a second and SQLite sleeps in its busy
/// handler while another process writes. On the two-thread cooperative pool that would stall every
/// other task of the program (the UI among them); on a queue of its own it stalls nothing but the
/// vault, whose requests are serial anyway.
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
