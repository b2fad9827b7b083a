import AuthCore

/// How the sign-in screens name and explain a flow.
extension SignInFlow {
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
