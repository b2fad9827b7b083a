import Dispatch

/// Lets go of `value` on another thread: its memory is freed there, beside the caller's work,
/// or not at all when the process ends first (the kernel takes it back anyway, which is what
/// clang's `-disable-free` counts on).
///
/// For a large value a command is done with on its way to exit: `list` lets go of 10,000
/// accounts' records (about 10 ms of frees, one object at a time) while it sorts and writes
/// their rows. Pass the last reference (`releaseAside(consume records)`), or nothing is
/// freed aside.
public func releaseAside<Value: Sendable>(_ value: consuming Value) {
  let held = value
  DispatchQueue.global(qos: .utility).async { withExtendedLifetime(held) {} }
}
