import AuthCore
import Foundation
import Spelling
import Vault

/// Why an account operation did not give its result. Each case has a message that names the
/// problem and the next step; the command line gives each its exit status (Commands'
/// `ExitCode`).
public enum AccountsError: Error, Sendable, Equatable {
  /// The text is not `PROVIDER/LABEL`, `PROVIDER` or `#N`.
  case malformedAccountName(String)
  /// No account has that name; `suggestions` are the closest existing names.
  case noSuchAccount(String, suggestions: [String])
  /// No account has that name, nor any other of its provider, which is known: the text as
  /// given, and the sign-in that makes one (`label`, when the text named one).
  case noAccountYet(String, provider: ProviderID, label: String?)
  /// A bare provider name with several accounts: the user must say which.
  case ambiguousAccount(String, candidates: [String])
  /// No provider has that id, as typed or stored (so perhaps no id at all); `suggestions` are
  /// the closest ids.
  case noSuchProvider(String, suggestions: [String])
  /// The provider is known but cannot be used (no client id, a missing endpoint…).
  case providerUnusable(ProviderID, problems: [String])
  /// The provider does not offer the flow asked for.
  case flowNotOffered(provider: ProviderID, flow: SignInFlow, offered: [SignInFlow])
  /// A label asked for breaks a rule of `AccountLabel` (the label as given, and the rule).
  case invalidLabel(String, problem: AccountLabel.Problem)
  /// The account has no usable token and none can be obtained without the user.
  case signInNeeded(AccountName, reason: SignInNeededReason)
  /// Another process held the refresh lease and neither finished nor gave it up in time.
  case refreshStalled(AccountName)
  /// The provider or the network failed (or the user cancelled a sign-in).
  case auth(AuthError)
  /// The vault failed.
  case vault(VaultError)
  /// A sign-in as one user would overwrite the account of another user with the same label.
  case labelTaken(AccountName)
  /// An env file could not be written.
  case envFile(path: String, reason: String)
  /// `requested` leads to a damaged account: a sign-in under its name, or a name that only the
  /// vault's lookup index still gives (the account's own name cells do not open).
  case damagedAccount(DamagedAccount, requested: String)
  /// A damaged account's tokens cannot be read, so they cannot be revoked at the provider.
  case revocationImpossible(DamagedAccount)
  /// The provider answered a refresh (and so spent the old refresh token), but the vault could
  /// not store the answer, even after retries (`detail`, the vault's reason). `keptAsideIn` is
  /// the side file that holds the new tokens sealed until there is room; nil when that failed
  /// too and they are lost.
  case refreshNotStored(AccountName, detail: String, keptAsideIn: String?)
  /// The tokens of an earlier refresh are kept aside in the side file `path` and the vault still
  /// cannot store them (`detail`), while the access token among them has run out.
  case refreshWaiting(AccountName, path: String, detail: String)
  /// The account was signed out at the provider (`revoked`, or its revocation was at least
  /// tried) and marked "sign-in needed" here, but the vault could not delete it (`detail`).
  case signedOutNotRemoved(AccountName, revoked: Bool, detail: String)
  /// `account`'s token is DPoP-bound (RFC 9449), so `refusing` (`export`, `git-credential`,
  /// the UI's copy…) does not hand it out: a copy of it is useless without a fresh proof of
  /// the key authtui keeps (`TokenHandOut`).
  case dpopBound(AccountName, refusing: String)

  /// Why an account must sign in again.
  public enum SignInNeededReason: Sendable, Equatable {
    /// The account has no access token (a previous refresh was refused, or it never had one).
    case noToken
    /// The provider refused the refresh token (`invalid_grant`); the tokens were cleared.
    case refreshRejected
    /// The provider refused a refresh token that an interrupted refresh (a process ended, or a
    /// request given up at its deadline, after the request was sent) had probably spent.
    case interruptedRefreshSpentToken
    /// The token runs out in less than asked and the provider gives no refresh token.
    case noRefreshToken(expiresAt: Date?)
    /// The provider now sends tokens to the server `now`, not `signedInAt` where the account
    /// signed in (`TokenOrigin`): its refresh token is not sent there.
    case providerMoved(signedInAt: String, now: String)
    /// A refresh answer's id_token named another user (`sub`) than the account's: its tokens
    /// were not used, and the account's were cleared (OIDC Core §12.2).
    case refreshNamedAnotherUser
  }

  /// True when only a new sign-in gives the account usable tokens again: the provider refused
  /// its refresh token, or it has none left to use.
  public var requiresSignIn: Bool {
    switch self {
    case .signInNeeded, .auth(.refreshTokenRejected), .refreshNotStored(_, _, nil):
      return true
    default: return false
    }
  }

  /// A stable machine name for the failure: the `error` of `login --json`'s error event.
  public var code: String {
    switch self {
    case .malformedAccountName: return "malformed_account_name"
    case .noSuchAccount, .noAccountYet: return "no_such_account"
    case .ambiguousAccount: return "ambiguous_account"
    case .noSuchProvider: return "no_such_provider"
    case .providerUnusable: return "provider_unusable"
    case .flowNotOffered: return "flow_not_offered"
    case .invalidLabel: return "invalid_label"
    case .signInNeeded: return "sign_in_needed"
    case .refreshStalled: return "refresh_stalled"
    case .auth(let error): return error.code
    case .vault: return "vault_error"
    case .labelTaken: return "label_taken"
    case .envFile: return "env_file"
    case .damagedAccount: return "account_damaged"
    case .revocationImpossible: return "revocation_impossible"
    case .refreshNotStored(_, _, let keptAside):
      return keptAside == nil ? "refresh_lost" : "refresh_kept_aside"
    case .refreshWaiting: return "refresh_waiting"
    case .signedOutNotRemoved: return "signed_out_not_removed"
    case .dpopBound: return "dpop_bound"
    }
  }

  /// One or two sentences: what is wrong, and what to do.
  public var message: String { message(signInAgain: nil) }

  /// `message`, with `advice` in place of the command line's "sign in again with `authtui
  /// login …`" where the error asks for a new sign-in (the UI names its own key).
  public func message(signInAgain advice: String?) -> String {
    switch self {
    case .malformedAccountName(let text):
      return "\(MessageQuoting.quoted(text)) is not an account name; write PROVIDER/LABEL "
        + "(for example simkl/alice), "
        + "or PROVIDER alone when it has one account"
    case .noSuchAccount(let name, let suggestions):
      return "no account \(name); "
        + Self.didYouMean(suggestions, otherwise: "`authtui list` shows your accounts")
    case .noAccountYet(let name, let provider, let label):
      let signIn = label.map { Self.signInCommand(for: AccountName(provider: provider, label: $0)) }
      return "no account \(name): you have no \(provider) account yet (`"
        + (signIn ?? "authtui login \(provider)") + "` signs in to one)"
    case .ambiguousAccount(let provider, let candidates):
      let shown = candidates.prefix(Self.namesShown)
      let more =
        candidates.count > shown.count
        ? ["… and \(candidates.count - shown.count) more (`authtui list` shows them all)"] : []
      return "\(provider) has \(candidates.count) accounts and none is its default; name one"
        + (more.isEmpty ? ":" : ", for example:")
        + Self.indentedLines(Array(shown) + more)
        + "\nor make one the default: `authtui default \(provider)/LABEL`"
    case .noSuchProvider(let id, let suggestions):
      return "no provider \(id); "
        + Self.didYouMean(suggestions, otherwise: "`authtui providers` lists them")
    case .providerUnusable(let id, let problems):
      return "the provider \(id) is not ready: " + problems.joined(separator: "; ")
    case .flowNotOffered(let provider, let flow, let offered):
      return "\(provider) does not offer the \(flow.rawValue) flow; use --flow "
        + offered.map(\.rawValue).joined(separator: " or ")
    case .invalidLabel(let label, let problem):
      return AccountLabel.message(label, problem)
    case .signInNeeded(let account, let reason):
      let again = advice ?? "sign in again with `\(Self.signInCommand(for: account))`"
      switch reason {
      case .noToken:
        return "\(account) needs a new sign-in; \(again)"
      case .refreshRejected:
        return "the provider refused \(account)'s refresh token (it was revoked or has expired); "
          + "its tokens were cleared: \(again)"
      case .interruptedRefreshSpentToken:
        return "the provider refused \(account)'s refresh token: an earlier refresh was"
          + " interrupted after its request was sent (the process ended or the answer came too"
          + " late), and the provider had already spent that token; its tokens were cleared: \(again)"
      case .noRefreshToken(let expiresAt):
        let when = expiresAt.map { " (it expires \(Self.describe($0)))" } ?? ""
        return
          "\(account)'s token runs out too soon\(when) and the provider gives no refresh token; "
          + again
      case .providerMoved(let signedInAt, let now):
        return "\(account) signed in at \(signedInAt), but its provider now sends tokens to "
          + "\(now), so its refresh token was not sent there (it goes back only to the server "
          + "that issued it); if the provider is right as it is now, \(again)"
      case .refreshNamedAnotherUser:
        return "the provider's answer to \(account)'s refresh named another user than the one "
          + "signed in (its id_token's subject changed), so its tokens were not used and "
          + "\(account)'s were cleared: \(again)"
      }
    case .refreshStalled(let account):
      return "another authtui process is refreshing \(account) and has not finished; "
        + "try again in a minute"
    case .auth(let error):
      return error.message
    case .vault(let error):
      return error.description
    case .labelTaken(let account):
      return "\(account) belongs to another user of the provider; nothing was stored. "
        + "Sign in with another --label, or sign \(account) out first"
    case .envFile(let path, let reason):
      // One line, whatever the path holds: a line break in it is shown escaped.
      return TerminalText.cleaned("cannot write \(path): \(reason)")
    case .damagedAccount(let damaged, let requested):
      let removal = "`authtui logout '\(damaged.id)' --local-only`"
      guard let name = damaged.name else {
        return "the vault files account \(damaged.id) under \(requested), but that account is "
          + "damaged (\(damaged.damage)) and its name cannot be read to confirm it: name it by "
          + "id to remove it, \(removal)"
      }
      return "\(name) is account \(damaged.id), which is damaged (\(damaged.damage)); remove it "
        + "with \(removal), then sign in again"
    case .refreshNotStored(let account, let detail, let keptAside?):
      return "the provider rotated \(account)'s tokens, but the vault could not store"
        + " them (\(detail)); they are kept aside, sealed, in \(keptAside) and are stored at the"
        + " next use of the vault once there is room: free space on that disk, then run"
        + " `authtui token \(account.provider)/\(Self.shellQuoted(account.label))` (no new"
        + " sign-in is needed)"
    case .refreshNotStored(let account, let detail, nil):
      let again = advice ?? "sign in again with `\(Self.signInCommand(for: account))`"
      return "the provider rotated \(account)'s tokens, but neither the vault nor its"
        + " side file could store them (\(detail)), so its refresh token is spent: free space on"
        + " the disk holding the vault, then \(again)"
    case .refreshWaiting(let account, let path, let detail):
      return "\(account)'s tokens from an earlier refresh are kept aside in \(path)"
        + " until the vault has room to store them (\(detail)), and their access token has run"
        + " out: free space on that disk, then run the command again (no new sign-in is needed)"
    case .signedOutNotRemoved(let account, let revoked, let detail):
      let done =
        revoked
        ? "was signed out at the provider (its tokens are revoked)"
        : "had its tokens cleared (the provider did not confirm their revocation)"
      return "\(account) \(done) and is marked \"sign-in needed\" here, but the vault could not"
        + " remove it (\(detail)): free space on the disk holding the vault, then remove it with"
        + " `authtui logout \(Self.shellQuoted(account.description, keeping: "/")) --local-only`"
    case .dpopBound(let account, let refused):
      return "\(account)'s token is DPoP-bound: it works only with a fresh proof of the key "
        + "authtui keeps, made for each request, so \(refused) cannot hand it out; use "
        + "`authtui token \(account) --header --for METHOD URL` for each request "
        + "(see docs/dpop.md)"
    case .revocationImpossible(let damaged):
      return "account \(damaged.reference) is damaged (\(damaged.damage)): its tokens cannot be "
        + "read, so they cannot be revoked at the provider; remove it here with "
        + "`authtui logout '\(damaged.id)' --local-only`, then withdraw authtui's access in your "
        + "account settings at the provider"
    }
  }

  /// The command that signs `account` in again (`authtui status` prints it too).
  public static func signInCommand(for account: AccountName) -> String {
    "authtui login \(account.provider) --label \(shellQuoted(account.label))"
  }

  /// `label` as a shell word: unchanged when it is plain, single-quoted otherwise.
  static func shellQuoted(_ label: String, keeping extra: String = "") -> String {
    MessageQuoting.shellWord(label, keeping: extra)
  }

  /// How many names a message lists before it says how many more there are.
  static let namesShown = 5

  /// "did you mean `a`?" for one suggestion, the suggestions one per line under "did you mean
  /// one of these?" for several, or `fallback` when nothing is close.
  static func didYouMean(_ suggestions: [String], otherwise fallback: String) -> String {
    guard let first = suggestions.first else { return fallback }
    guard suggestions.count > 1 else { return "did you mean `\(first)`?" }
    return "did you mean one of these?" + indentedLines(suggestions)
  }

  /// Each of `lines` on a line of its own, indented two spaces, after a line break.
  static func indentedLines(_ lines: [String]) -> String {
    lines.map { "\n  " + $0 }.joined()
  }

  static func describe(_ date: Date) -> String {
    let seconds = Int(clamping: date.timeIntervalSinceNow.rounded())
    if seconds <= 0 { return "now" }
    if seconds < 120 { return "in \(seconds) s" }
    return "in \(seconds / 60) min"
  }
}

extension AccountsError: CustomStringConvertible {
  public var description: String { message }
}
