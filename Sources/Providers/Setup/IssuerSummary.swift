import AuthCore

/// What an authorization server offers authtui, read from its discovered metadata
/// (`OIDCProvider.discover`): the few facts `authtui providers add` prints, `providers show`
/// repeats, and the UI's "Other provider…" form shows before it saves.
public struct IssuerSummary: Sendable, Equatable {
  /// Whether pushed authorization requests (RFC 9126) are offered.
  public enum PushedRequests: String, Sendable, Equatable {
    /// No `pushed_authorization_request_endpoint`.
    case no
    /// An endpoint, not required.
    case offered
    /// `require_pushed_authorization_requests`: every request must be pushed.
    case required
  }

  /// The issuer.
  public let issuer: String
  /// The documents found: OpenID discovery, RFC 8414 metadata, or both.
  public let documents: [MetadataDocument.Kind]
  /// True when the server is an OpenID provider (it publishes OpenID discovery, or lists the
  /// `openid` scope): id_tokens, the `openid` scope, the account's name from its claims.
  public let isOpenID: Bool
  /// The sign-in flows authtui can use there, in the order it prefers them: the browser
  /// (`pkce`: an authorization and a token endpoint, the `code` response type and S256 when
  /// the server lists what it takes) and the device code (`device`: a device authorization
  /// endpoint, and its grant when the server lists grant types).
  public let flows: [SignInFlow]
  /// Whether the server gives refresh tokens: true when it lists the `refresh_token` grant or
  /// the `offline_access` scope, false when it lists grant types without it, nil when it does
  /// not say.
  public let refresh: Bool?
  /// A `revocation_endpoint` (RFC 7009): sign-out revokes the tokens there.
  public let revocation: Bool
  /// An `end_session_endpoint` (OIDC RP-Initiated Logout): sign-out can open its page.
  public let signOutPage: Bool
  /// A `registration_endpoint` (RFC 7591): authtui can register itself.
  public let registration: Bool
  /// Pushed authorization requests (RFC 9126 §5).
  public let pushedRequests: PushedRequests
  /// The DPoP proof algorithms (RFC 9449 §5.1); empty when DPoP is not offered.
  public let dpopAlgorithms: [String]
  /// The scopes the server lists (`scopes_supported`); empty when it does not say.
  public let scopesSupported: [String]

  /// The summary of `metadata`.
  public init(_ metadata: OIDCProviderMetadata) {
    issuer = metadata.issuer
    documents = metadata.sources
    isOpenID =
      metadata.sources.contains(.openIDConfiguration) || metadata.scopesSupported.contains("openid")
    var flows: [SignInFlow] = []
    let responseTypes = metadata.responseTypesSupported
    let methods = metadata.codeChallengeMethods
    if metadata.authorizationEndpoint != nil, metadata.tokenEndpoint != nil,
      responseTypes.isEmpty || responseTypes.contains("code"),
      methods.isEmpty || methods.contains("S256")
    {
      flows.append(.pkce)
    }
    if metadata.deviceAuthorizationEndpoint != nil, metadata.tokenEndpoint != nil,
      metadata.grantTypesSupported.map({
        $0.contains(ClientRegistrationRequest.deviceCodeGrantType)
      }) ?? true
    {
      flows.append(.device)
    }
    self.flows = flows
    if metadata.grantTypesSupported?.contains("refresh_token") == true
      || metadata.scopesSupported.contains("offline_access")
    {
      refresh = true
    } else {
      refresh = metadata.grantTypesSupported == nil ? nil : false
    }
    revocation = metadata.revocationEndpoint != nil
    signOutPage = metadata.endSessionEndpoint != nil
    registration = metadata.registrationEndpoint != nil
    if metadata.pushedAuthorizationRequestEndpoint == nil {
      pushedRequests = .no
    } else {
      pushedRequests = metadata.requirePushedAuthorizationRequests ? .required : .offered
    }
    dpopAlgorithms = metadata.dpopSigningAlgorithms
    scopesSupported = metadata.scopesSupported
  }

  /// The facts as `label: value` pairs, in the order printed.
  public var facts: [(label: String, value: String)] {
    let found = documents.map { kind -> String in
      switch kind {
      case .openIDConfiguration: return "OpenID Connect discovery"
      case .authorizationServer: return "RFC 8414 metadata"
      }
    }
    let signIn = flows.map { flow -> String in
      switch flow {
      case .pkce: return "browser (pkce)"
      case .device: return "code on another device (device)"
      case .pin: return "PIN (pin)"
      }
    }
    let refreshText: String
    switch refresh {
    case true?: refreshText = "yes"
    case false?: refreshText = "no: sign in again when the token expires"
    case nil: refreshText = "not stated"
    }
    let pushed: String
    switch pushedRequests {
    case .no: pushed = "no"
    case .offered: pushed = "offered (RFC 9126)"
    case .required: pushed = "required (RFC 9126)"
    }
    return [
      ("found", found.joined(separator: ", ")),
      ("sign-in", signIn.isEmpty ? "none authtui can use" : signIn.joined(separator: ", ")),
      ("refresh", refreshText),
      ("revocation", revocation ? "yes (RFC 7009)" : "no: sign-out forgets the tokens here only"),
      ("sign-out page", signOutPage ? "yes" : "no"),
      ("registration", registration ? "offered (RFC 7591)" : "no"),
      ("pushed requests", pushed),
      (
        "DPoP",
        dpopAlgorithms.isEmpty ? "no" : dpopAlgorithms.joined(separator: ", ") + " (RFC 9449)"
      ),
    ]
  }
}
