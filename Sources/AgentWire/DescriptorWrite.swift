#if canImport(Glibc)
  import Glibc
#endif

/// The one loop that writes a whole text to a file descriptor, for the front (which loads no
/// Foundation) and the full program's `Console` alike: nothing buffered, so nothing is left
/// behind when the process exits or `exec`s right after.
public enum DescriptorWrite {
  /// Writes all of `text` to `descriptor`, retrying on interruption; 0, or the `errno` of the
  /// write that failed (EIO for one that took nothing of a text not yet all written).
  /// A standard descriptor the caller closed (`StandardDescriptors`) takes nothing: EBADF.
  public static func all(_ text: String, to descriptor: Int32) -> Int32 {
    guard !StandardDescriptors.wasClosed(descriptor) else { return EBADF }
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      guard written > 0 else { return EIO }
      bytes = bytes.dropFirst(written)
    }
    return 0
  }
}
