#if canImport(Glibc)
  import Glibc
#endif

/// What is at a path, named for a message.
package enum FileType {
  /// "a folder", "a FIFO (named pipe)", "a character device"…: what `mode` (a `stat`'s
  /// `st_mode`, or its `S_IFMT` bits alone) says is there.
  package static func name(of mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFIFO: return "a FIFO (named pipe)"
    case S_IFSOCK: return "a socket"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFDIR: return "a folder"
    case S_IFREG: return "a file"
    case S_IFLNK: return "a symlink"
    default: return "something other than a file"
    }
  }
}
