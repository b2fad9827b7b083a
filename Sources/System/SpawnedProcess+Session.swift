internal import CProcessControl

#if canImport(Glibc)
  import Glibc
#endif

// The GNU posix_spawn extensions a detached child needs (CProcessControl declares them: the
// Glibc module hides them without _GNU_SOURCE).
extension SpawnedProcess {
  /// `POSIX_SPAWN_SETSID`: the child calls setsid() before exec.
  static var newSessionFlag: Int16 { authtui_spawn_setsid_flag() }

  /// Closes every descriptor from `lowest` up in the child, after the other file actions.
  static func closeDescriptors(from lowest: Int32, in actions: inout posix_spawn_file_actions_t) {
    posix_spawn_file_actions_addclosefrom_np(&actions, lowest)
  }
}
