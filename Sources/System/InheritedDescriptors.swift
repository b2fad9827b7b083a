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
  /// The descriptors from 3 up that are open now without close-on-exec. Called before authtui
  /// opens anything of its own (`exec` asks first thing), that is what was handed down: a
  /// descriptor inherited through `exec` never has close-on-exec, and what authtui and its
  /// libraries open early (Foundation, libdispatch) has it.
  public static func current() -> [Int32] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
    else { return [] }
    return names.compactMap { Int32($0) }.filter { descriptor in
      // The folder's own descriptor is closed by now, and fails here.
      guard descriptor > 2 else { return false }
      let flags = fcntl(descriptor, F_GETFD)
      return flags >= 0 && flags & FD_CLOEXEC == 0
    }.sorted()
  }
}
