import Foundation
import Spelling

extension AuthError: CustomStringConvertible {
  /// One sentence for the user: what went wrong and what to do next.
  public var message: String {
    switch self {
    case .cancelled:
      return "The sign-in was cancelled; start it again when you are ready."
    case .accessDenied(let description, let issuerMissing):
      return "The sign-in was declined at the provider\(Self.quoted(description)); start a new "
        + "sign-in and approve access to try again." + Self.missingIssuerNote(issuerMissing)
    case .noAnswer(let waited):
      return "No answer from the provider after \(Self.duration(waited)) (the sign-in may have "
        + "been declined); start a new sign-in to try again."
    case .userCodeExpired:
      return "The code expired before it was approved; start a new sign-in for a fresh code and "
        + "enter it before its countdown ends."
    case .refreshTokenRejected(let description):
      return "The provider no longer accepts this account's refresh token"
        + "\(Self.quoted(description)); sign in to the account again."
    case .portInUse(let port):
      return "Port \(port) on 127.0.0.1, which this provider's redirect URI needs, is in use; "
        + "close the program holding it (`ss -ltnp 'sport = :\(port)'` names it) and try again."
    case .listenerFailed(let reason):
      return "Could not listen for the browser's redirect (\(reason)); try again, or use "
        + "another flow with --flow."
    case .stateMismatch:
      return "The redirect did not belong to this sign-in (its state did not match) and its code "
        + "was discarded; finish the sign-in in the browser tab opened for this attempt."
    case .issuerMismatch(let expected, let received):
      let source = received.map { "came from \($0)" } ?? "named no issuer"
      return "The redirect \(source) where \(expected) was expected, so it was refused; check "
        + "the provider's issuer in its configuration and start a new sign-in."
    case .malformedRedirect(let reason):
      return "That is not a redirect this sign-in can use (\(reason)); paste the whole address "
        + "shown by the browser after you approved."
    case .authorizationFailed(let error, let issuerMissing):
      let note = Self.missingIssuerNote(issuerMissing)
      if error.code == .serverError || error.code == .temporarilyUnavailable {
        return "The provider could not handle the sign-in just now\(Self.detail(error)); try "
          + "again in a few minutes." + note
      }
      return "The provider refused the sign-in request\(Self.detail(error)); check the client "
        + "id, scopes and redirect settings in the provider's configuration, then start again."
        + note
    case .pkceVerificationFailed(let description):
      return "The provider refused the sign-in's PKCE proof\(Self.quoted(description)), so the "
        + "code cannot be used; start a new sign-in."
    case .authorizationCodeUsed:
      return "The provider says the sign-in code was already used; start a new sign-in."
    case .authorizationCodeExpired:
      return "The sign-in code expired before it was exchanged; start a new sign-in and finish "
        + "it without a long pause."
    case .authorizationCodeFromTheFuture:
      return "The provider says the sign-in code is dated in the future, so a clock is wrong; "
        + "check this computer's clock (`timedatectl`) and start a new sign-in."
    case .pinCodeReplaced:
      return "The code you were shown is no longer valid at the provider (it expired or was "
        + "already used); start a new sign-in to get a fresh code."
    case .tokenRequestRejected(let error):
      return Self.tokenRequestMessage(error)
    case .revocationRejected(let error):
      return "The provider refused to revoke the token\(Self.detail(error)); revoke authtui's "
        + "access in the provider's account settings."
    case .serverError(let status):
      return "The provider failed with HTTP \(status); try again in a few minutes."
    case .unexpectedStatus(let status):
      return "The provider answered with an unexpected HTTP \(status); check the endpoint URLs "
        + "in the provider's configuration and try again."
    case .redirectRefused(let status):
      return "The provider's endpoint answered with a redirect (HTTP \(status)), which authtui "
        + "never follows for OAuth requests; check the endpoint URL in the provider's "
        + "configuration."
    case .emptyResponse(let status):
      return "The provider sent an empty answer (HTTP \(status)); try again, and check the "
        + "endpoint URL in the provider's configuration if it keeps happening."
    case .nonJSONResponse(let status):
      return "The provider's answer was not JSON (HTTP \(status)); try again later, and check "
        + "the endpoint URL in the provider's configuration if it keeps happening."
    case .malformedResponse(let reason):
      return "The provider's answer was incomplete (\(reason)); try again, and report it to the "
        + "provider if it keeps happening."
    case .transport(let error):
      return error.message
    case .flowNotOffered(let flow, let provider):
      return "\(provider) does not offer the \(flow.rawValue) flow; choose one of the flows "
        + "`authtui providers` lists for it."
    case .missingEndpoint(let name, let provider):
      return "The configuration of \(provider) has no \(name); add it to the provider file (or "
        + "set `issuer` so discovery fills it in)."
    case .endpointNotDiscovered(let name, let provider, let issuer):
      if name == "device_authorization_endpoint" {
        return "\(provider) does not offer the device flow: the discovery document of \(issuer) "
          + "lists no device_authorization_endpoint (the server may be too old for it); sign in "
          + "with the browser instead (`--flow pkce`), or add device_authorization_endpoint to "
          + "the provider file if the server has one."
      }
      return "\(provider) cannot do this: the discovery document of \(issuer) lists no \(name); "
        + "choose another flow (`authtui providers` lists them), or add \(name) to the "
        + "provider file if the server has one."
    case .insecureEndpoint(let name, let provider):
      return "The \(name) of \(provider) uses plain http; change it to https (only 127.0.0.1 "
        + "and localhost may use http)."
    case .pushedAuthorizationUnavailable(let provider, let requiredByServer):
      if requiredByServer {
        return "\(provider) takes only pushed authorization requests, but its server publishes "
          + "no pushed_authorization_request_endpoint; check the provider's issuer, or ask its "
          + "administrator to publish the endpoint."
      }
      return "\(provider) is set to push its authorization requests (`\"par\": \"required\"`), "
        + "but its server publishes no pushed_authorization_request_endpoint (RFC 9126); set "
        + "`\"par\": \"auto\"` in the provider file, or check its issuer."
    case .pushedAuthorizationRequiredByServer(let provider):
      return "\(provider) takes only pushed authorization requests (RFC 9126), and the provider "
        + "file says `\"par\": \"off\"`; remove that line (or set `\"auto\"`) and sign in again."
    case .pushedAuthorizationRejected(let error):
      let detail =
        " (\(error.code.rawValue)\(error.errorDescription.map { ": \(TerminalText.cleaned($0))" } ?? ""))"
      return "The provider refused the sign-in request it was sent first\(detail); check the "
        + "client id, scopes and redirect settings in the provider's configuration, then start "
        + "again."
    case .dpopUnsupported(let provider, let offered):
      let listed =
        offered.isEmpty
        ? "lists no DPoP algorithm"
        : "lists only \(offered.map { TerminalText.cleaned($0) }.joined(separator: ", "))"
      return "\(provider) is set to require DPoP (`\"dpop\": \"required\"`), but its server "
        + "\(listed) in dpop_signing_alg_values_supported, and authtui signs ES256; set "
        + "`\"dpop\": \"auto\"` in the provider file, or check its issuer."
    case .dpopKeyMissing(let provider):
      return "\(provider) needs DPoP-bound tokens, but this sign-in has no key to bind them to; "
        + "set `\"dpop\": \"auto\"` in the provider file, or use an authtui that keeps DPoP keys."
    case .dpopProofFailed(let reason):
      return "Could not sign the DPoP proof for this request (\(reason)); try again."
    case .unexpectedDPoPToken:
      return "The provider answered with a DPoP-bound token although no DPoP proof was sent, so "
        + "the token cannot be used; check the provider's `dpop` setting and sign in again."
    case .discoveryFailed(let error): return error.message
    case .registrationFailed(let error): return error.message
    case .idTokenRejected(let error): return error.message
    case .identityFailed(let error): return error.message
    }
  }

  /// The same as `message`.
  public var description: String { message }

  private static func tokenRequestMessage(_ error: OAuthError) -> String {
    switch error.code {
    case .invalidGrant:
      return "The provider refused the grant\(detail(error)); start a new sign-in."
    case .invalidClient, .unauthorizedClient:
      return "The provider does not accept this client id for this request\(detail(error)); "
        + "check `client_id` in the provider's configuration."
    case .invalidScope:
      return "The provider refused the requested scopes\(detail(error)); fix `scopes` in the "
        + "provider's configuration."
    case .useDPoPNonce:
      return "The provider kept asking for a new DPoP nonce\(detail(error)); try again in a "
        + "moment."
    case .invalidDPoPProof:
      return "The provider refused the DPoP proof\(detail(error)); check this computer's clock "
        + "(`timedatectl`) and try again."
    case .unsupportedGrantType:
      return "The provider does not support this kind of sign-in\(detail(error)); choose "
        + "another flow with --flow."
    default:
      return "The provider refused the token request\(detail(error)); try again, and check the "
        + "provider's configuration if it keeps failing."
    }
  }

  /// The note on an error redirect that lacked the `iss` its provider promises (RFC 9207 §3).
  private static func missingIssuerNote(_ issuerMissing: Bool) -> String {
    guard issuerMissing else { return "" }
    return " (The provider's answer lacked the `iss` it promises (RFC 9207); no code was used.)"
  }

  private static func detail(_ error: OAuthError) -> String {
    " (\(error.code.rawValue)\(error.errorDescription.map { ": \($0)" } ?? ""))"
  }

  private static func quoted(_ description: String?) -> String {
    description.map { " (\($0))" } ?? ""
  }

  private static func duration(_ seconds: TimeInterval) -> String {
    let whole = Int(clamping: seconds.rounded())
    if whole >= 60 && whole % 60 == 0 {
      return whole == 60 ? "1 minute" : "\(whole / 60) minutes"
    }
    return whole == 1 ? "1 second" : "\(whole) seconds"
  }
}

extension TransportError: CustomStringConvertible {
  /// One sentence for the user: what went wrong and what to do next.
  public var message: String {
    switch self {
    case .timedOut(let seconds):
      return
        "The provider did not answer within \(Int(clamping: seconds.rounded())) seconds; check "
        + "your network connection and try again."
    case .connectionLost(let host):
      return "The connection to \(host) dropped before the answer arrived; try again."
    case .cannotConnect(let host):
      return "Could not connect to \(host); check your network connection (and any proxy) and "
        + "try again."
    case .hostNotFound(let host):
      return "Cannot find \(host) (DNS); check the host name in the URL, then your network "
        + "connection (and any proxy), and try again."
    case .untrustedCertificate(let host):
      return "The certificate of \(host) is not trusted (self-signed or from an unknown "
        + "authority); give the server a certificate from a trusted authority, or add its "
        + "authority to this computer's trust store (/usr/local/share/ca-certificates, then "
        + "update-ca-certificates), and do not continue on a network you do not trust."
    case .insecureConnection(let host):
      return "The secure connection to \(host) failed (certificate or TLS); check this "
        + "computer's clock and certificates, and do not continue on an untrusted network."
    case .responseTooLarge(let limit):
      return "The provider's answer was larger than \(limit) bytes and was not read; check the "
        + "endpoint URL in the provider's configuration."
    case .cancelled:
      return "The request was cancelled; start it again when you are ready."
    case .failed(let reason):
      return "\(reason.prefix(1).uppercased())\(reason.dropFirst()); check your network "
        + "connection and try again."
    }
  }

  /// The same as `message`.
  public var description: String { message }
}
