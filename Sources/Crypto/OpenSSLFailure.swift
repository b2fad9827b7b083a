internal import COpenSSL

/// Drains OpenSSL's thread-local error queue into one `CryptoError.backend` reason.
///
/// Draining matters: a stale entry left in the queue would be blamed on the next, unrelated call.
func openSSLFailure(_ context: String) -> CryptoError {
  var reasons: [String] = []
  while true {
    let code = ERR_get_error()
    if code == 0 { break }
    var buffer = [CChar](repeating: 0, count: 256)
    ERR_error_string_n(code, &buffer, buffer.count)
    reasons.append(
      String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
  }
  return .backend(reasons.isEmpty ? context : "\(context): \(reasons.joined(separator: "; "))")
}
