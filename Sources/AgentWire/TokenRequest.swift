import JSON

/// The front's one request: `token` for an account (`min_valid`, `started_at`), or, for
/// `token --header --for METHOD URL`, `proof` with the request's method and URL. The full
/// program writes the same two requests through it (`AgentRequest.line`), so that both send
/// the same line.
package struct TokenRequest: AgentWireRequest, Equatable {
  package typealias Answer = TokenAnswer

  /// The longest `min_valid` accepted: a year, as for `token --min-valid`.
  package static let maximumValidity = 31_536_000

  /// The account as written (`account`).
  package let account: String
  /// How many seconds the token must stay valid (`min_valid`).
  package let minimumValidity: Int
  /// When the caller's `token` started, in seconds since 1970 (`started_at`).
  package let startedAt: Double?
  /// For `proof`: the request the proof is for.
  package let target: Target?
  /// The canonical path of the caller's vault (`vault`).
  package let vault: String
  package let host: String?

  /// A `token` request, or a `proof` one when `target` is given.
  package init(
    account: String, minimumValidity: Int, startedAt: Double?,
    target: Target? = nil, vault: String, host: String? = nil
  ) {
    self.account = account
    self.minimumValidity = minimumValidity
    self.startedAt = startedAt
    self.target = target
    self.vault = vault
    self.host = host
  }

  package func from(host: String?) -> TokenRequest {
    TokenRequest(
      account: account, minimumValidity: minimumValidity, startedAt: startedAt, target: target,
      vault: vault, host: host)
  }

  /// `{"op":"token","account":"simkl/alice","min_valid":60,"vault":"/abs/vault.db","started_at":1712345678.25}`,
  /// or `{"op":"proof",…,"min_valid":60,"method":"GET","url":"https://…","vault":…}`.
  package var line: String {
    var members: [(String, OrderedJSON)] = [
      ("op", target == nil ? "token" : "proof"), ("account", .string(account)),
      ("min_valid", .int(minimumValidity)),
    ]
    if let target {
      members += [("method", .string(target.method)), ("url", .string(target.url))]
    }
    members.append(("vault", .string(vault)))
    if let startedAt { members.append(("started_at", .double(startedAt))) }
    if let host { members.append(("host", .string(host))) }
    return OrderedJSON.object(members).text
  }

  /// The request a proof is for (`method`, `url`).
  package struct Target: Sendable, Equatable {
    /// The method, in capitals.
    package let method: String
    /// The URL, as it is sent.
    package let url: String

    /// A `method` request to `url`.
    package init(method: String, url: String) {
      self.method = method
      self.url = url
    }
  }
}
