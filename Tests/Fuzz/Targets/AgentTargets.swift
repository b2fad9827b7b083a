import Agent

extension FuzzTargets {
  /// A line a client sends to `authtui agent` (any local process of the user can).
  ///
  /// A request read, written again, reads back the same.
  static let agentRequest = FuzzTarget(
    name: "agent-request", summary: "AgentRequest: lines the agent reads from its clients"
  ) { bytes in
    guard let request = try? AgentRequest(parsing: String(fuzzInput: bytes)) else { return }
    require(request.vault.utf8.first == UInt8(ascii: "/"), "accepted a relative vault path")
    if case .rename(let account, let label) = request.operation {
      require(!account.isEmpty && !label.isEmpty, "accepted a rename without account or label")
    }
    let again = try? AgentRequest(parsing: request.line)
    require(again == request, "parse(line) differs for \(request.line)")
  }

  /// An answer line `authtui token` reads from whatever listens on the agent socket.
  ///
  /// An answer read, written again, reads back the same.
  static let agentResponse = FuzzTarget(
    name: "agent-response", summary: "AgentResponse: lines authtui token reads from the agent"
  ) { bytes in
    guard let response = AgentResponse(parsing: String(fuzzInput: bytes)) else { return }
    if case .renamed(let rename) = response {
      require(
        !rename.previous.label.isEmpty && !rename.account.label.isEmpty,
        "accepted a name without a label")
    }
    require(AgentResponse(parsing: response.line) == response, "parse(line) differs")
  }

  /// The command line the front of `authtui` answers itself (`token ACCOUNT`, `--min-valid`,
  /// `--vault`, `--header --for METHOD URL`), as a user or a script may write it: the input's
  /// arguments are separated by NUL bytes.
  ///
  /// A command line taken names an account the full program would read as one, a validity
  /// within a year, and a plain URL; the request it sends is one the agent reads, with those
  /// very values.
  static let tokenShortcut = FuzzTarget(
    name: "token-shortcut",
    summary: "TokenShortcut: the command lines the front answers from the agent"
  ) { bytes in
    let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    guard let shortcut = TokenShortcut(arguments: arguments) else { return }
    require(
      !shortcut.account.isEmpty && !shortcut.account.hasPrefix("-"),
      "took the account \(shortcut.account)")
    require(
      (0...TokenRequest.maximumValidity).contains(shortcut.minimumValidity),
      "took the validity \(shortcut.minimumValidity)")
    if let target = shortcut.target {
      require(ProofTarget.plainURL(target.url) == target.url, "took the URL \(target.url)")
    }
    guard
      let request = shortcut.request(variable: { $0 == "HOME" ? "/home/x" : nil }, startedAt: 1)
    else {
      require(false, "no request for \(arguments)")
      return
    }
    let read = try? AgentRequest(parsing: request.line)
    switch read?.operation {
    case .token(let account, let validity, _)?:
      require(
        shortcut.target == nil && account == shortcut.account
          && validity == shortcut.minimumValidity, "the agent reads another token request")
    case .proof(let account, let validity, _, let method, let url)?:
      require(
        shortcut.target?.method == method && shortcut.target?.url == url.absoluteString
          && account == shortcut.account && validity == shortcut.minimumValidity,
        "the agent reads another proof request")
    default:
      require(false, "the agent cannot read \(request.line)")
    }
  }
}
