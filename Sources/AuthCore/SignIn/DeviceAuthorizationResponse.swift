import Foundation
import JSON
import Spelling

/// A device authorization answer (RFC 8628 §3.2), or the start of a Simkl PIN flow, which uses
/// the same member names. `description` never shows the device code.
public struct DeviceAuthorizationResponse: Sendable, Equatable, CustomStringConvertible {
  /// `device_code` (RFC 8628 §3.2): what the client polls with. Simkl's PIN flow sends a
  /// placeholder and polls with the user code instead.
  let deviceCode: String?
  /// `user_code` (RFC 8628 §3.2): what the user types.
  public let userCode: String
  /// `verification_uri` (RFC 8628 §3.2); `verification_url` is read too (Simkl, older Google).
  public let verificationURI: URL
  /// `verification_uri_complete` (RFC 8628 §3.3.1): the URI with the code filled in.
  public let verificationURIComplete: URL?
  /// `expires_in` (RFC 8628 §3.2): seconds until the codes expire.
  public let expiresIn: TimeInterval
  /// `interval` (RFC 8628 §3.2): seconds between polls; 5 when absent (RFC 8628 §3.5).
  public let interval: TimeInterval

  /// The most seconds `expires_in` and `interval` are taken at: a day. A sign-in waits an
  /// hour at most (`login_timeout`), and a bigger number, up to `"1e999"` (infinity), would
  /// overflow the whole seconds the description and the countdown show.
  static let longestWait: TimeInterval = 86_400
  /// The longest `user_code` taken, in bytes (RFC 8628 §6.1 suggests 8 characters).
  static let longestUserCode = 64
  /// The longest `verification_uri` (and `…_complete`) taken, in bytes.
  static let longestAddress = 2048

  /// Reads the answer's members.
  public init(json: [String: JSONValue]) throws(AuthError) {
    guard let userCode = json["user_code"]?.stringValue, !userCode.isEmpty else {
      throw .malformedResponse("the answer has no user_code")
    }
    // The code is shown, copied to the clipboard and pasted: a control character in it would
    // act where it is pasted.
    guard userCode.utf8.count <= Self.longestUserCode, TerminalText.isClean(userCode) else {
      throw .malformedResponse(
        "the answer's user_code is longer than \(Self.longestUserCode) bytes or holds control "
          + "characters")
    }
    let verification =
      json["verification_uri"]?.stringValue ?? json["verification_url"]?.stringValue
    guard let verification, let verificationURI = URL(string: verification),
      verificationURI.scheme != nil
    else { throw .malformedResponse("the answer has no verification_uri") }
    // It is opened in the browser: a web page of the provider's, never a file, a script or
    // another program's scheme.
    guard verification.utf8.count <= Self.longestAddress,
      ProviderConfiguration.isAllowedEndpoint(verificationURI)
    else {
      throw .malformedResponse(
        "the answer's verification_uri is not an https address (or http on this machine) of "
          + "at most \(Self.longestAddress) bytes, so authtui does not open it")
    }
    // `> 0` refuses NaN too.
    guard let expiresIn = json["expires_in"]?.numberValue, expiresIn > 0 else {
      throw .malformedResponse("the answer has no expires_in")
    }
    self.deviceCode = json["device_code"]?.stringValue
    self.userCode = userCode
    self.verificationURI = verificationURI
    // Optional: one that could not be opened is left out (the code is typed at
    // `verification_uri` instead).
    self.verificationURIComplete = json["verification_uri_complete"]?.stringValue.flatMap {
      text in
      URL(string: text).flatMap {
        text.utf8.count <= Self.longestAddress && ProviderConfiguration.isAllowedEndpoint($0)
          ? $0 : nil
      }
    }
    self.expiresIn = min(expiresIn, Self.longestWait)
    let interval = json["interval"]?.numberValue ?? 5
    self.interval = interval.isNaN ? 5 : min(max(1, interval), Self.longestWait)
  }

  /// The user-facing members only.
  public var description: String {
    "DeviceAuthorizationResponse(user_code: \(userCode), verification_uri: "
      + "\(verificationURI.absoluteString), expires_in: \(Int(clamping: expiresIn)), "
      + "interval: \(Int(clamping: interval)))"
  }
}
