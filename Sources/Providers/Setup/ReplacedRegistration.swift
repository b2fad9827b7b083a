import AuthCore
import Foundation

/// The registration (RFC 7592) that a provider file replaced by `providers add --replace`
/// held: to be deleted at the server once the new file is written, since nothing else holds
/// what deleting it takes. Its token prints as a placeholder.
public struct ReplacedRegistration: Sendable, Equatable {
  /// The client it registered (`client_id`), when the file named it.
  public let clientID: String?
  /// Where it is managed (`registration_client_uri`, RFC 7592 §3).
  public let uri: URL
  /// Its bearer token (`registration_access_token`, RFC 7592 §3).
  public let token: RegistrationAccessToken

  /// The registration `clientID` at `uri`, with its `token`.
  public init(clientID: String?, uri: URL, token: RegistrationAccessToken) {
    self.clientID = clientID
    self.uri = uri
    self.token = token
  }
}
