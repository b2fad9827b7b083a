#if canImport(Glibc)
  import Glibc
#endif

/// The time of day as `Date().timeIntervalSince1970` reads it, for a module without Foundation.
package enum UnixTime {
  /// Seconds since 1970 now (`CLOCK_REALTIME`).
  package static func now() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }
}
