import Providers

extension ProviderAdditionError {
  /// The line the "Other provider…" form shows: what went wrong and the fix, in the form's
  /// words (the command line's name its options instead).
  var formLine: String {
    switch self {
    case .exists(let id, let path):
      return "\(path) exists already, for another provider; choose another id than \(id)"
    case .presetID(let id):
      return "\(id) is a built-in preset's id; choose another, such as \(id)-2"
    case .registration(let error):
      // The registration's sentence ends by asking for a client id obtained another way.
      return error.message + " Type it as the client id above, and Enter saves it."
    default:
      return description
    }
  }

  /// The field the person fixes for it.
  var formField: IssuerForm.Field {
    switch self {
    case .exists, .presetID, .file: return .providerID
    case .registration, .noRedirectPort: return .clientID
    case .credentialsInIssuer, .documentAddress, .discovery, .noUsableFlow, .flowNotOffered:
      return .issuer
    }
  }
}
