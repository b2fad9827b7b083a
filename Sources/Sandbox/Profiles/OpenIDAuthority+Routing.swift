import AuthCore
import JSON
import Loopback

/// Which request goes where, and the discovery document that publishes it.
extension OpenIDAuthority {
  /// Answers a request for one of the authority's endpoints; nil for any other path.
  mutating func respond(to request: HTTPRequest, context: inout ProviderContext) -> HTTPResponse? {
    let routes = configuration.routes
    switch request.path {
    case let path where routes.discovery.contains(path):
      return Answers.allowing(["GET"], request) {
        guard context.settings.publishesOpenIDDiscovery else { return Answers.notFound(path) }
        return discovery(context, authorizationServer: false)
      }
    case let path where routes.authorizationServerMetadata.contains(path):
      return Answers.allowing(["GET"], request) { discovery(context, authorizationServer: true) }
    case routes.registration:
      return Answers.allowing(["POST"], request) { register(request, context: &context) }
    case let path
    where routes.registration.map { path.hasPrefix($0 + "/") } == true:
      return Answers.allowing(["GET", "DELETE"], request) {
        manageRegistration(request, context: &context)
      }
    case routes.jwks:
      return Answers.allowing(["GET"], request) { jwksResponse() }
    case routes.authorize:
      switch request.method {
      case "GET":
        return authorize(request, context: &context)
      case "POST":
        // The consent form posts back here; any other POST is an authorization request.
        return RequestFields.body(of: request).names.contains("request_id")
          ? decide(request, context: &context) : authorize(request, context: &context)
      default:
        return Answers.methodNotAllowed(["GET", "POST"])
      }
    case routes.token:
      return Answers.allowing(["POST"], request) { token(request, context: &context) }
    case routes.identity:
      return Answers.allowing(["GET", "POST"], request) { identity(request, context: &context) }
    case routes.deviceAuthorization:
      return Answers.allowing(["POST"], request) {
        deviceAuthorization(request, verificationPath: routes.device ?? "", context: &context)
      }
    case let path where path == routes.device:
      return Answers.allowing(["GET", "POST"], request) {
        devicePage(request, verificationPath: path, context: &context)
      }
    case routes.revocation:
      return Answers.allowing(["POST"], request) { revoke(request, context: &context) }
    case let path
    where path == routes.pushedAuthorization && context.settings.pushedAuthorization != .off:
      return Answers.allowing(["POST"], request) { pushAuthorization(request, context: &context) }
    default:
      return nil
    }
  }

  /// OpenID Connect Discovery 1.0 §3 metadata, with RFC 8414 names for the OAuth parts; the
  /// RFC 8414 document (`authorizationServer`) adds the members only it publishes.
  func discovery(_ context: ProviderContext, authorizationServer: Bool) -> HTTPResponse {
    let routes = configuration.routes
    let settings = context.settings
    func url(_ path: String?) -> OrderedJSON? { path.map { .string(context.absolute($0)) } }
    let grantTypes: [OrderedJSON] =
      ["authorization_code", "refresh_token"]
      + (configuration.offersDeviceGrant ? [.string(Self.deviceGrantType)] : [])
    let published = configuration.tenancy.map { context.absolute($0.publishedIssuerPath) }
    let members: [(String, OrderedJSON?)] = [
      ("issuer", .string(published ?? issuer(context))),
      ("authorization_endpoint", url(routes.authorize)),
      ("token_endpoint", url(routes.token)),
      ("device_authorization_endpoint", url(routes.deviceAuthorization)),
      ("revocation_endpoint", url(routes.revocation)),
      ("userinfo_endpoint", url(routes.identity)),
      ("end_session_endpoint", url(routes.endSession)),
      ("jwks_uri", url(routes.jwks)),
      ("scopes_supported", .array(configuration.supportedScopes.map { .string($0.name) })),
      ("response_types_supported", ["code"]),
      ("response_modes_supported", ["query"]),
      ("grant_types_supported", .array(grantTypes)),
      ("subject_types_supported", ["public"]),
      (
        "id_token_signing_alg_values_supported",
        .array(configuration.signingAlgorithms.map { .string($0.rawValue) })
      ),
      (
        "token_endpoint_auth_methods_supported",
        configuration.clientSecret == nil
          ? ["none"] : ["client_secret_post", "client_secret_basic"]
      ),
      ("revocation_endpoint_auth_methods_supported", routes.revocation.map { _ in ["none"] }),
      ("code_challenge_methods_supported", ["S256"]),
      ("claims_supported", .array(claimsSupported.map { .string($0) })),
      (
        "authorization_response_iss_parameter_supported",
        configuration.returnsIssuer ? true : nil
      ),
      ("claims_parameter_supported", false),
      ("request_parameter_supported", false),
      ("request_uri_parameter_supported", false),
      ("registration_endpoint", url(routes.registration)),
      (
        "pushed_authorization_request_endpoint",
        settings.pushedAuthorization == .off ? nil : url(routes.pushedAuthorization)
      ),
      (
        "require_pushed_authorization_requests",
        settings.pushedAuthorization == .required && routes.pushedAuthorization != nil
          ? true : nil
      ),
      (
        "dpop_signing_alg_values_supported",
        settings.dpop == .off ? nil : .array(settings.dpopSigningAlgorithms.map(OrderedJSON.string))
      ),
    ]
    let left = authorizationServer ? [] : configuration.onlyInAuthorizationServerMetadata
    return Answers.json(.object(dropping: members.filter { !left.contains($0.0) }))
  }

  /// The claims the discovery document lists.
  private var claimsSupported: [String] {
    let registered = ["iss", "sub", "aud", "exp", "iat", "auth_time", "nonce", "at_hash"]
    switch configuration.claims {
    case .standard: return registered + ["preferred_username", "name", "email", "email_verified"]
    case .gitlab:
      return registered + [
        "sub_legacy", "name", "nickname", "preferred_username", "email", "email_verified",
        "website", "profile", "picture", "groups", "groups_direct",
      ]
    case .google:
      return registered + ["email", "email_verified", "name", "given_name", "picture"]
    }
  }

  /// The JWKS, or a 500 when a key cannot be made.
  mutating func jwksResponse() -> HTTPResponse {
    do {
      var response = Answers.json(try keys.jwks())
      response.headers.removeAll { $0.name == "Cache-Control" || $0.name == "Pragma" }
      response.headers.append(("Cache-Control", "no-cache"))
      return response
    } catch {
      return Answers.oauthError(
        "server_error", "The sandbox could not make a signing key.", status: 500)
    }
  }
}
