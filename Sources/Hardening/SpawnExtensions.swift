internal import CProcessControl

#if canImport(Glibc)
  import Glibc
#endif

/// The GNU posix_spawn extensions a detached child needs (`SpawnedProcess.start(detached:)`):
/// CProcessControl declares them, as the Glibc module hides them without _GNU_SOURCE.
public enum SpawnExtensions {
  /// `POSIX_SPAWN_SETSID`: the child calls setsid() before exec.
  public static var newSessionFlag: Int16 { authtui_spawn_setsid_flag() }

  /// Closes every descriptor from `lowest` up in the child, after the other file actions;
  /// `actions` is a `posix_spawn_file_actions_t`.
  public static func closeDescriptors(from lowest: Int32, in actions: UnsafeMutableRawPointer) {
    _ = authtui_spawn_close_from(actions, lowest)
  }
}
