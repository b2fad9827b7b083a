/// How a sign-in proves who the user is: the `flows` of a provider file and `login --flow`.
public enum SignInMethod: String, Sendable, Hashable, CaseIterable {
  /// Authorization Code with PKCE: the browser opens the provider's consent page and
  /// redirects back to a loopback listener.
  case pkce
  /// Device authorization (RFC 8628): a code to enter on any device.
  case device
  /// Simkl's PIN flow: like the device flow, with Simkl's own endpoints.
  case pin

  /// The name the sign-in screens show.
  public var title: String {
    switch self {
    case .pkce: return "Browser"
    case .device: return "Device code"
    case .pin: return "PIN code"
    }
  }

  /// One line on what the user will do.
  public var explanation: String {
    switch self {
    case .pkce: return "approve in a browser"
    case .device: return "enter a code on any device"
    case .pin: return "enter a PIN on the provider's page"
    }
  }

  /// The word of the title bar: `browser`, `device code`, `PIN`.
  public var shortTitle: String {
    switch self {
    case .pkce: return "browser"
    case .device: return "device code"
    case .pin: return "PIN"
    }
  }

  /// True for the flows that show a user code to type elsewhere.
  public var showsUserCode: Bool { self != .pkce }
}
