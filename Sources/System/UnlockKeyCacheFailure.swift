#if canImport(Glibc)
  import Glibc
#endif

/// Why `vault unlock --cache` could not cache the key: the system call that failed and its
/// errno, with what that means here.
package struct UnlockKeyCacheFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// The call (`add_key`, `keyctl(KEYCTL_LINK)`).
  package let call: String
  /// Its errno.
  package let code: Int32

  /// "the kernel keyring is not available to this process (add_key: Operation not
  /// permitted, EPERM): …".
  package var description: String {
    let meaning =
      "\(call): \(String(cString: strerror(code)))\(Self.name(code).map { ", \($0)" } ?? "")"
    switch code {
    case ENOSYS, EPERM, EACCES:
      return "the kernel keyring is not available to this process (\(meaning)): the kernel "
        + "has no key service, or a sandbox forbids it (a container's seccomp profile blocks "
        + "the key system calls)"
    case EDQUOT:
      return "the kernel keyring is full for this user (\(meaning)): its key quota is "
        + "/proc/sys/kernel/keys/maxkeys and maxbytes, and /proc/key-users shows what is used"
    default:
      return "the kernel keyring refused the key (\(meaning))"
    }
  }

  private static func name(_ code: Int32) -> String? {
    [
      ENOSYS: "ENOSYS", EPERM: "EPERM", EACCES: "EACCES", EDQUOT: "EDQUOT", ENOMEM: "ENOMEM",
      EINVAL: "EINVAL", ENOKEY: "ENOKEY", EKEYEXPIRED: "EKEYEXPIRED",
      EKEYREVOKED: "EKEYREVOKED",
    ][code]
  }
}
