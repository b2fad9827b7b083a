import Accounts
import Agent
import Foundation
import Spelling
import System

/// `authtui token ACCOUNT [--min-valid SECONDS] [--header [--for METHOD URL]]`: a valid access
/// token on standard output, for scripts (`curl -H "Authorization: Bearer $(authtui token
/// simkl/alice)" …`), or the whole header line (`authtui token simkl/alice --header | curl -H @-
/// …`); with `--for`, the headers for that one request, a DPoP proof among them when the token
/// is DPoP-bound (RFC 9449).
struct TokenCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "token",
    summary: "Print a valid access token for ACCOUNT, refreshing it first when needed.",
    details: """
      ACCOUNT is PROVIDER/LABEL (simkl/alice), or PROVIDER alone when it has one account or
      a default one (`authtui default`).
      The token is refreshed first when fewer than --min-valid seconds remain (default 60),
      at most once per call: a token obtained during this call is printed even when the
      provider's lifetime is shorter. Many processes may ask at once: one refreshes, the
      others wait for it and print its token. Exit 5 when the account needs a new sign-in
      (no refresh token, or the provider refused it), 7 when the provider cannot be reached
      (the stored tokens are then left as they were). After a refresh whose answer was lost
      (its process killed; docs/scripting.md, "Interrupting a refresh"), the refresh token may
      be spent and is not sent again while the access token lasts: that token is printed even
      with less than --min-valid left (exit 0), and standard error says how long it lasts,
      why, and what to do; so too when the disk has no room for a refresh's answer (nothing
      is sent). When `authtui agent` runs for this
      vault, it answers instead and no passphrase is needed; AUTHTUI_NO_AGENT=1 skips it.
      Without it, calls at once take turns at the vault's key derivation (128 MiB each), as
      many at a time as the cores and memory allow, and say so when they wait over 2 s.
      SIGINT, SIGTERM and SIGHUP during a refresh request wait until its answer is stored,
      then end the process; SIGKILL then may cost the account a new sign-in.
      --header prints `Authorization: Bearer TOKEN` instead, one line that curl reads
      from standard input: authtui token simkl/alice --header | curl -H @- URL
      A DPoP-bound token (the provider file's "dpop", see docs/dpop.md) works only with a
      fresh proof of the account's key for each request: --header --for METHOD URL prints
      `Authorization: DPoP TOKEN` and `DPoP: PROOF` for that request, one a line:
        authtui token work/alice --header --for GET URL | curl -H @- URL
      (for a Bearer token, the same line as --header alone). The proof is signed by the
      agent when it runs (the key never leaves it), else here; --header alone refuses a
      DPoP-bound token, and names --for.
      """,
    arguments: [.required("ACCOUNT", \.account, .account)],
    options: [
      .minimumValidity(\.minimumValidity),
      .flag("header", \.header, help: "print `Authorization: Bearer TOKEN` (for `curl -H @-`)"),
      .words(
        "for", count: 2, \.target, .proofTarget, "METHOD URL",
        help: "with --header: the headers for this request, a DPoP proof among them"),
    ])

  var global = GlobalOptions()
  /// The account's name as given.
  var account = ""
  /// `--min-valid`, in seconds.
  var minimumValidity = 60
  /// `--header`: the whole `Authorization` header line.
  var header = false
  /// `--for METHOD URL`: the request the headers are for.
  var target: ProofRequest?

  mutating func validate() throws(CommandFailure) {
    if target != nil && !header {
      throw CommandFailure(
        exitCode: .usage,
        message: "--for goes with --header: token ACCOUNT --header --for METHOD URL")
    }
  }

  func run(console: Console) async -> ExitCode {
    let startedAt = Date()
    do throws(CommandFailure) {
      if header {
        console.outExactly(try await headers(startedAt: startedAt, console: console))
        return .ok
      }
      let asked = await askAgent(startedAt: startedAt)
      if let answer = asked.answer {
        let (token, note) = try answer.get()
        let printed = try output(token)
        if let note { console.err("authtui: \(note)") }
        console.outExactly(printed)
        return .ok
      }
      // Read once: the providers to load and the book's lookup both take it. A malformed
      // name is reported after the unlock, where the book reports it.
      let reference = Result { () throws(AccountsError) in try AccountReference(parsing: account) }
      let book: AccountBook
      do {
        book = try await AccountAccess.book(
          global, console: console, providers: .reference(try? reference.get()))
      } catch {
        throw asked.stoppedAnswering ? Self.afterSilentAgent(error) : error
      }
      let token: String
      let shortfall: TokenShortfall?
      do {
        (token, shortfall) = try await book.accessTokenNotingShortfall(
          try reference.get(), minimumValidity: TimeInterval(minimumValidity),
          startedAt: startedAt)
      } catch {
        throw AccountAccess.failure(error)
      }
      let printed = try output(token)
      // Still a valid token, handed out as "no blind replay" promises (exit 0), but shorter
      // lived than asked for: the caller is told how long, why, and what to do.
      if let shortfall { console.err("authtui: \(shortfall.message)") }
      console.outExactly(printed)
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }

  /// What is printed for `token`: the token itself, or with `--header` the header line, which
  /// a token with a line break in it would end early (and a second header would follow).
  /// A token is printed exactly or not at all: one holding a control or direction character
  /// (stored by a version that took it from the provider's answer) is refused.
  func output(_ token: String) throws(CommandFailure) -> String {
    guard TerminalText.isClean(token) else { throw Self.unprintable(account) }
    return header ? "Authorization: Bearer \(token)" : token
  }

  /// `--header`'s lines: with `--for`, the token and, when it is DPoP-bound, its proof for
  /// that request (`AgentProof`), from the agent when it runs, else made here; without it,
  /// the Bearer line, or a refusal for a DPoP-bound token, which needs a proof.
  private func headers(startedAt: Date, console: Console) async throws(CommandFailure)
    -> String
  {
    let proven: AgentProof
    if let target {
      let operation = AgentRequest.Operation.proof(
        account: account, minimumValidity: minimumValidity, startedAt: startedAt,
        method: target.method, url: target.url)
      if !AgentAbsenceNote.leftByFront,
        let answer = await AgentAnswer.ask(
          operation, global, timeout: AgentAnswer.accountsTimeout, \.proof)
      {
        proven = try answer.get()
      } else {
        let book = try await AccountAccess.book(
          global, console: console, providers: .account(account))
        do {
          proven = try await book.proof(
            named: account, method: target.method, url: target.url, startedAt: startedAt,
            minimumValidity: TimeInterval(minimumValidity))
        } catch {
          throw AccountAccess.failure(error)
        }
      }
      if let note = proven.note { console.err("authtui: \(note)") }
    } else {
      let exportable = try await ExportCommand.exportable(
        account, global, startedAt: startedAt, minimumValidity: minimumValidity,
        console: console)
      try Self.refuseBoundToken(exportable, refusing: "--header alone")
      proven = AgentProof(account: exportable.account, token: exportable.token, proof: nil)
    }
    guard TerminalText.isClean(proven.token), proven.proof.map(TerminalText.isClean) ?? true
    else { throw Self.unprintable(account) }
    return proven.headerLines
  }

  /// The refusal of `refused` (`export`, `git-credential`, `--header` alone) for the account
  /// of `exportable`, when its token is DPoP-bound (RFC 9449): `TokenHandOut`'s, which the
  /// UI's copy and export keys share.
  static func refuseBoundToken(_ exportable: AgentExport, refusing refused: String)
    throws(CommandFailure)
  {
    do {
      try TokenHandOut.check(
        account: exportable.account, isDPoPBound: exportable.isDPoPBound, refusing: refused)
    } catch {
      throw AccountAccess.failure(error)
    }
  }

  /// A stored token holds a character no token may hold (RFC 6749 §A.12: visible ASCII and
  /// spaces); printing it would send a terminal what the provider put in it.
  static func unprintable(_ account: String) -> CommandFailure {
    CommandFailure(
      exitCode: .providerError,
      message: "\(account)'s stored token holds control characters, which no token may hold; "
        + "sign in again (`authtui login`) to replace it")
  }

  /// The token from a running agent for this vault (with the note on its shortfall, if any),
  /// or its failure; nil when there is no agent to ask (or `AUTHTUI_NO_AGENT` is set, or the
  /// front of `authtui` asked already and found none), and the vault must be unlocked here.
  /// `stoppedAnswering` when an agent took the request (this process's, or its front's) and
  /// gave no answer.
  func askAgent(startedAt: Date) async
    -> (answer: Result<(token: String, note: String?), CommandFailure>?, stoppedAnswering: Bool)
  {
    guard AgentClient.enabled(), !AgentAbsenceNote.leftByFront else { return (nil, false) }
    let frontFoundSilence = AgentAbsenceNote.found == .stoppedAnswering
    let request = AgentRequest(
      operation: .token(account: account, minimumValidity: minimumValidity, startedAt: startedAt),
      vault: VaultAccess.location(global).canonicalPath)
    switch await AgentClient.exchange(
      request, at: .resolve(),
      timeout: AgentConnection.connectTimeout + AgentConnection.tokenTimeout)
    {
    case .answered(.token(let token)): return (.success((token, nil)), false)
    case .answered(.notedToken(let token, let note)): return (.success((token, note)), false)
    case .answered(.failure(let failure)): return (.failure(failure), false)
    case .unanswered: return (nil, true)
    case .answered, .noAgent: return (nil, frontFoundSilence)
    }
  }

  /// `failure` of the unlock after an agent stopped answering: when it is for want of a
  /// passphrase, it says that the agent stopped answering too (a script that always had its
  /// token from the agent would otherwise see only "no passphrase").
  static func afterSilentAgent(_ failure: CommandFailure) -> CommandFailure {
    let source = PassphraseSource.current(environment: ProcessInfo.processInfo.environment)
    let bare = PassphraseError.noTerminal(variable: source.variable).message
    let prefix = "no passphrase: "
    guard failure.message == bare, bare.hasPrefix(prefix) else { return failure }
    return CommandFailure(
      exitStatus: failure.exitStatus, code: failure.code,
      message: prefix + "the agent on \(AgentSocketLocation.resolve().path) stopped answering "
        + "(stopped or killed mid-request), so the vault is unlocked here, and "
        + bare.dropFirst(prefix.count))
  }
}

extension Option {
  /// `--min-valid SECONDS`, as `token` and `exec` take it.
  static func minimumValidity(_ path: WritableKeyPath<Root, Int> & Sendable) -> Option {
    .value(
      "min-valid", path, .seconds(), "SECONDS",
      help: "refresh when fewer seconds than this remain", showsDefault: true)
  }
}

/// The request `token --header --for METHOD URL` makes the headers for.
struct ProofRequest: Sendable, Equatable {
  /// The method, in capitals (`GET`).
  let method: String
  /// The URL, absolute (`https` or `http`).
  let url: URL
}

extension ValueType where Value == ProofRequest {
  /// `METHOD URL` (the parser joins the two words by a space): a method of letters and an
  /// absolute https or http URL (`ProofTarget`).
  static var proofTarget: ValueType {
    ValueType { text, context throws(CommandFailure) in
      let words = text.split(separator: " ", maxSplits: 1).map(String.init)
      guard words.count == 2, let method = ProofTarget.method(words[0]) else {
        throw CommandFailure(
          exitCode: .usage,
          message: "--for takes the request's METHOD (GET, POST…) and then its URL, not "
            + "'\(TerminalText.cleaned(words.first ?? text))'")
      }
      guard let url = ProofTarget.url(words[1]) else {
        throw CommandFailure(
          exitCode: .usage,
          message: "--for \(method) needs the request's absolute https or http URL, not "
            + "'\(TerminalText.cleaned(words[1]))'")
      }
      _ = context
      return ProofRequest(method: method, url: url)
    }
  }
}
