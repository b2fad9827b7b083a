#if canImport(Glibc)
  import Glibc
#endif

/// The socket file an agent bound and the folder holding it, each by device and inode.
///
/// The path alone cannot tell the agent's own socket from one put there after it: a folder
/// removed by a cleaner or at logout (`/run/user/UID` goes with the session) and made again, a
/// second agent's socket, a plain file. An agent whose path no longer names its socket can
/// never be asked again, nor stopped by `agent stop`, yet would keep the vault's key in memory;
/// it looks now and then (`AgentSocketLocation.change(since:)`) and stops when it is so.
package struct AgentSocketIdentity: Sendable, Equatable {
  /// One file, as the file system names it.
  struct FileID: Sendable, Equatable {
    let device: UInt64
    let inode: UInt64

    /// The file at `path` itself (a link is not followed), or nil when there is none.
    init?(at path: String) {
      var info = stat()
      guard lstat(path, &info) == 0 else { return nil }
      device = UInt64(info.st_dev)
      inode = UInt64(info.st_ino)
    }

    init(device: UInt64, inode: UInt64) {
      self.device = device
      self.inode = inode
    }
  }

  /// The socket file.
  let socket: FileID
  /// Its folder.
  let folder: FileID

  /// What became of a bound socket's path.
  package enum Change: Sendable, Equatable {
    /// The folder is gone (and the socket with it).
    case folderRemoved(String)
    /// Another folder is at the folder's path.
    case folderReplaced(String)
    /// The socket file is gone.
    case socketRemoved(String)
    /// Another file is at the socket's path.
    case socketReplaced(String)

    /// What happened, as a clause: "its socket /run/user/1000/authtui/agent.sock was removed".
    package var sentence: String {
      switch self {
      case .folderRemoved(let folder): return "the folder of its socket, \(folder), was removed"
      case .folderReplaced(let folder):
        return "the folder of its socket, \(folder), was replaced by another"
      case .socketRemoved(let path): return "its socket \(path) was removed"
      case .socketReplaced(let path): return "its socket \(path) was replaced by another file"
      }
    }
  }
}
