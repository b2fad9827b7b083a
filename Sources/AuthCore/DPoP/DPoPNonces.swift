import Foundation

/// The latest DPoP nonce each server gave (RFC 9449 §8, §9), by origin (scheme, host, port):
/// the next proof to that server carries it. Shared by every client of one provider for a run
/// (`OIDCProvider` holds one); nothing is stored beyond it.
public actor DPoPNonces {
  private var latest: [String: String] = [:]

  /// An empty memory.
  public init() {}

  /// The nonce to send to `url`'s server, if it gave one.
  public func nonce(for url: URL) -> String? {
    Self.origin(of: url).flatMap { latest[$0] }
  }

  /// Keeps `nonce` as the one to send to `url`'s server from now on.
  public func remember(_ nonce: String, for url: URL) {
    guard let origin = Self.origin(of: url) else { return }
    latest[origin] = nonce
  }

  /// `scheme://host:port`, lowercased, the port filled in for http and https.
  static func origin(of url: URL) -> String? {
    guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else {
      return nil
    }
    let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : 0)
    return "\(scheme)://\(host):\(port)"
  }
}
