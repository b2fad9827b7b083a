import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The descriptors above 2 that whoever started this process handed down to it (a shell's
/// `3<file`, the end of a pipe a script meant for a command), as opposed to those authtui opens
/// itself.
///
/// Every child of authtui keeps 0, 1 and 2 alone (`SpawnedProcess`), but `exec`'s command is
/// the user's, run as a shell would run it: what the user handed to `authtui exec … 3<file`
/// is meant for it.
public enum InheritedDescriptors {
  /// What was handed down, as `current()` found it when first asked: `main.swift` asks first
  /// thing, before any thread of this process exists, so that no descriptor another thread
  /// opens and closes meanwhile is taken for one (a busy run of the tests once saw `exec`
  /// pass its command a descriptor that was gone by then: "Bad file descriptor").
  public static let atStart: [Int32] = current()

  /// Those of `descriptors` still open without close-on-exec: what was handed down stays so,
  /// and one that did not (closed since, so never the caller's) is not passed on.
  public static func stillHandedDown(_ descriptors: [Int32]) -> [Int32] {
    descriptors.filter { isHandedDown($0) }
  }

  /// The descriptors from 3 up that are open now without close-on-exec. Called before authtui
  /// opens anything of its own (`atStart`), that is what was handed down: a descriptor
  /// inherited through `exec` never has close-on-exec, and what authtui and its libraries open
  /// early (Foundation, libdispatch) has it.
  public static func current() -> [Int32] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
    else { return [] }
    // The folder's own descriptor is closed by now, and fails the check.
    return names.compactMap { Int32($0) }.filter { $0 > 2 && isHandedDown($0) }.sorted()
  }

  private static func isHandedDown(_ descriptor: Int32) -> Bool {
    let flags = fcntl(descriptor, F_GETFD)
    return flags >= 0 && flags & FD_CLOEXEC == 0
  }
}
