import Foundation
import JSON

/// What `authtui token ACCOUNT --header --for METHOD URL` prints: the account's access token
/// with its scheme, and for a DPoP-bound token a proof (RFC 9449 §4, §7) for that one request,
/// signed where the account's key is (in the agent when it runs: the key never leaves it).
///
/// ```
/// {"account":"sandbox/alice","token":"…","token_type":"DPoP","proof":"eyJ0eXAiOiJkcG9wK2p3dCIs…"}
/// {"account":"simkl/alice","token":"…","token_type":"Bearer","proof":null}
/// ```
public struct AgentProof: Sendable, Equatable {
  /// The account (`account`: `PROVIDER/LABEL`).
  public let account: AccountName
  /// The access token (`token`), valid for `min_valid` seconds at least.
  public let token: String
  /// The proof for the request (`proof`); nil for a Bearer token, which takes none.
  public let proof: String?

  /// `account`'s `token`, with `proof` when it is DPoP-bound.
  public init(account: AccountName, token: String, proof: String?) {
    self.account = account
    self.token = token
    self.proof = proof
  }

  /// The token's scheme (`token_type`): `DPoP` with a proof, else `Bearer`.
  public var tokenType: String { proof == nil ? "Bearer" : "DPoP" }

  /// The header lines, without a final newline: `Authorization: Bearer TOKEN`, or
  /// `Authorization: DPoP TOKEN` and `DPoP: PROOF` (RFC 9449 §7.1), one a line, as
  /// `curl -H @-` reads them.
  public var headerLines: String {
    guard let proof else { return "Authorization: Bearer \(token)" }
    return "Authorization: DPoP \(token)\nDPoP: \(proof)"
  }

  var json: OrderedJSON {
    .object([
      ("account", .string(account.description)), ("token", .string(token)),
      ("token_type", .string(tokenType)), ("proof", proof.map(OrderedJSON.string) ?? .null),
    ])
  }

  /// Reads the answer's `proof` object; nil when it is not one, or when `token_type` and
  /// `proof` disagree (a DPoP token needs its proof, a Bearer token takes none).
  init?(json members: [String: JSONValue]) {
    guard let account = members["account"]?.stringValue.flatMap(AccountName.init),
      let token = members["token"]?.stringValue, let type = members["token_type"]?.stringValue
    else { return nil }
    let proof: String?
    switch members["proof"] {
    case .string(let text)?: proof = text
    case .null?, nil: proof = nil
    default: return nil
    }
    guard (type == "DPoP") == (proof != nil), type == "DPoP" || type == "Bearer" else {
      return nil
    }
    self.init(account: account, token: token, proof: proof)
  }
}

/// The request a proof is for (`method`, `url`): checked on both sides of the socket, so the
/// agent signs nothing a command line could not have asked.
public enum ProofTarget {
  /// The longest URL taken, in bytes.
  public static let maximumURLLength = 8192

  /// `text` as a method (RFC 9110 §9: a token; `GET`, `POST`…), in capitals, or nil when it is
  /// not letters only (1 to 32 of them).
  public static func method(_ text: String) -> String? {
    guard (1...32).contains(text.utf8.count),
      text.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
    else { return nil }
    return text.uppercased()
  }

  /// `text` as the URL of the request: absolute, `https` or `http`, with a host, of visible
  /// ASCII only; nil otherwise.
  public static func url(_ text: String) -> URL? {
    guard (1...maximumURLLength).contains(text.utf8.count),
      text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }),
      let url = URL(string: text), let scheme = url.scheme?.lowercased(),
      scheme == "https" || scheme == "http", let host = url.host, !host.isEmpty
    else { return nil }
    return url
  }
}
