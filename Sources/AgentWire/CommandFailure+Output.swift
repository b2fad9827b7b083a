#if canImport(Glibc)
  import Glibc
#endif

extension CommandFailure {
  /// Standard output refused what a command wrote (`>/dev/full`, a full disk, a file over its
  /// size limit): the command did not do its job, however the rest went. Both the front and
  /// the full program end with it, so a script (`passwordeval "authtui token …"`) never reads
  /// a token that was not delivered as success. A reader that went away (EPIPE) is not one:
  /// SIGPIPE ends the writer as it ends any program in a pipeline (`| head -1`).
  /// EBADF is a standard output the caller closed (`>&-`): "it is closed".
  public static func unwritableOutput(errorNumber: Int32) -> CommandFailure {
    let reason = errorNumber == EBADF ? "it is closed" : String(cString: strerror(errorNumber))
    return CommandFailure(
      exitCode: .failure, message: "cannot write to standard output (\(reason))",
      code: "output_failed")
  }
}
