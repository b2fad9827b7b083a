import AuthCore
import Crypto
import Foundation
import JSON

/// A Hivesigner authorization code: a signed message naming the app, the optional `login`
/// scope and the PKCE challenge, the author and the time it was signed. The code carries its
/// own issue time, which is what lets the sandbox clock make it "expired" or "dated in the
/// future".
///
/// On the wire it is base64url of
/// `{"signed_message":{…},"authors":["alice"],"timestamp":1800000000,"signatures":["…"]}`.
/// Real Hivesigner signs with the user's key; the sandbox signs the same canonical bytes with
/// HMAC-SHA256 under a key of its own, so a changed challenge no longer verifies.
struct HivesignerCode: Sendable, Equatable {
  let app: String
  /// `"login"` for a sign-in-only code, nil for posting.
  let scope: String?
  /// The S256 challenge; nil when the request had none usable (plain, missing, malformed).
  let challenge: String?
  let author: String
  /// Unix time in whole seconds.
  let timestamp: Int

  /// The exact bytes the signature covers, members in the documented order, no spaces.
  var canonicalText: String {
    OrderedJSON.object(signedDocument).text
  }

  private var signedDocument: [(String, OrderedJSON)] {
    var message: [(String, OrderedJSON)] = [("type", "code"), ("app", .string(app))]
    if let scope { message.append(("scope", .string(scope))) }
    if let challenge {
      message += [("code_challenge", .string(challenge)), ("code_challenge_method", "S256")]
    }
    return [
      ("signed_message", .object(message)), ("authors", [.string(author)]),
      ("timestamp", .int(timestamp)),
    ]
  }

  /// The code as handed to the app.
  func encoded(signingKey: [UInt8]) -> String {
    let signature = HMACSHA256.authenticationCode(
      for: Array(canonicalText.utf8), key: signingKey)
    let hex = signature.map { String(format: "%02x", $0) }.joined()
    let document = OrderedJSON.object(signedDocument + [("signatures", [.string(hex)])])
    return Base64URL.encode(Array(document.text.utf8))
  }

  /// Reads a code, or nil when it is not one this sandbox signed.
  static func decode(_ code: String, signingKey: [UInt8]) -> HivesignerCode? {
    guard let bytes = try? Base64URL.decode(code),
      let document = JSONValue.object(from: bytes),
      let message = document["signed_message"]?.objectValue,
      message["type"]?.stringValue == "code", let app = message["app"]?.stringValue,
      let authors = document["authors"]?.stringArrayValue, authors.count == 1,
      let timestamp = document["timestamp"]?.strictNumberValue.flatMap({ Int(exactly: $0) }),
      let signatures = document["signatures"]?.stringArrayValue, let signature = signatures.first
    else { return nil }
    let scope = message["scope"]?.stringValue
    let challenge = message["code_challenge"]?.stringValue
    let expectedKeys = 2 + (scope == nil ? 0 : 1) + (challenge == nil ? 0 : 2)
    guard message.count == expectedKeys,
      challenge == nil || message["code_challenge_method"]?.stringValue == "S256"
    else { return nil }
    let candidate = HivesignerCode(
      app: app, scope: scope, challenge: challenge, author: authors[0], timestamp: timestamp)
    guard let given = Self.bytes(hex: signature),
      HMACSHA256.isValid(given, for: Array(candidate.canonicalText.utf8), key: signingKey)
    else { return nil }
    return candidate
  }

  private static func bytes(hex: String) -> [UInt8]? {
    let characters = Array(hex.utf8)
    guard characters.count == 64 else { return nil }
    var output: [UInt8] = []
    var index = 0
    while index < characters.count {
      let pair = String(decoding: characters[index..<index + 2], as: UTF8.self)
      guard let byte = UInt8(pair, radix: 16) else { return nil }
      output.append(byte)
      index += 2
    }
    return output
  }
}

extension HivesignerCode: CustomStringConvertible {
  /// Without the challenge, which binds the code to its verifier.
  var description: String {
    "HivesignerCode(app: \(app), author: \(author), timestamp: \(timestamp))"
  }
}
