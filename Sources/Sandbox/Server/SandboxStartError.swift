import AuthCore
import Loopback

/// Why the sandbox could not start.
public enum SandboxStartError: Error, Equatable, CustomStringConvertible {
  /// Another program listens on the asked port.
  case portInUse(UInt16)
  /// The listening socket could not be opened.
  case socket(String)

  init(_ error: LoopbackServerError) {
    switch error {
    case .portInUse(let port): self = .portInUse(port)
    case .socket: self = .socket(error.description)
    }
  }

  public var description: String {
    switch self {
    case .portInUse(let port):
      return "port \(port) on 127.0.0.1 is already in use; find the program with "
        + "`ss -ltnp 'sport = :\(port)'` and stop it, or pick another port with "
        + "--listen 127.0.0.1:PORT (0 picks a free one)"
    case .socket(let text):
      return text
    }
  }
}
