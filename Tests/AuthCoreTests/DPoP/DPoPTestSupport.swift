import AuthCore
import Crypto
import Foundation
import JSON
import Loopback

/// Random bytes that are all `byte`: a `jti` a test can predict.
struct RepeatedRandom: RandomSource {
  let byte: UInt8

  func bytes(count: Int) -> [UInt8] { [UInt8](repeating: byte, count: count) }
}

/// A signer that always fails, as an agent that went away would.
struct FailingSigner: DPoPSigner {
  struct Gone: Error, CustomStringConvertible {
    var description: String { "the agent stopped" }
  }

  let publicParameters: JWKPublicParameters

  func signature(for message: [UInt8]) async throws -> [UInt8] { throw Gone() }
}

/// A DPoP proof taken apart, for assertions.
struct DecodedProof {
  let header: [String: JSONValue]
  let headerText: String
  let claims: [String: JSONValue]
  let signingInput: [UInt8]
  let signature: [UInt8]

  init?(_ text: String) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let headerBytes = try? Base64URL.decode(parts[0]),
      let claimBytes = try? Base64URL.decode(parts[1]),
      let header = JSONValue.object(from: headerBytes),
      let claims = JSONValue.object(from: claimBytes),
      let signature = try? Base64URL.decode(parts[2])
    else { return nil }
    self.header = header
    headerText = String(decoding: headerBytes, as: UTF8.self)
    self.claims = claims
    signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
    self.signature = signature
  }

  /// True when `key` signed it (ES256).
  func isSigned(by key: P256SigningKey) -> Bool {
    (try? key.publicKey().isValidSignature(signature, for: signingInput, algorithm: .es256))
      ?? false
  }
}

extension TransportRequest {
  /// The proof in the request's `DPoP` header, taken apart.
  var dpopProof: DecodedProof? { header("DPoP").flatMap(DecodedProof.init) }
}

extension URL {
  /// The decoded query parameters.
  var queryItems: [String: String] {
    Dictionary(
      FormEncoding.decode(query(percentEncoded: true) ?? "").map { ($0.name, $0.value) }
    ) { first, _ in first }
  }
}
