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
  /// A sentence for standard error when the token has less validity left than was asked for
  /// (`note`: a `TokenShortfall`'s); nil otherwise, when the member is left out.
  public let note: String?

  /// `account`'s `token`, with `proof` when it is DPoP-bound, and `note` to say.
  public init(account: AccountName, token: String, proof: String?, note: String? = nil) {
    self.account = account
    self.token = token
    self.proof = proof
    self.note = note
  }

  /// The token's scheme (`token_type`): `DPoP` with a proof, else `Bearer`.
  public var tokenType: String { headers.tokenType }

  /// The header lines, without a final newline: `Authorization: Bearer TOKEN`, or
  /// `Authorization: DPoP TOKEN` and `DPoP: PROOF` (RFC 9449 §7.1), one a line, as
  /// `curl -H @-` reads them.
  public var headerLines: String { headers.lines }

  /// The token and its proof, as the front reads them.
  var headers: ProofHeaders { ProofHeaders(token: token, proof: proof, note: note) }

  var json: OrderedJSON {
    .object(
      [
        ("account", .string(account.description)), ("token", .string(token)),
        ("token_type", .string(tokenType)), ("proof", proof.map(OrderedJSON.string) ?? .null),
      ] + (note.map { [("note", OrderedJSON.string($0))] } ?? []))
  }

  /// Reads the answer's `proof` object; nil when it is not one, or when `token_type` and
  /// `proof` disagree (a DPoP token needs its proof, a Bearer token takes none).
  init?(json members: [String: JSONValue]) {
    guard let account = members["account"]?.stringValue.flatMap(AccountName.init),
      let headers = ProofHeaders(json: members)
    else { return nil }
    self.init(account: account, token: headers.token, proof: headers.proof, note: headers.note)
  }
}

extension ProofTarget {
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
