import Accounts
import AuthCore
import System
import Vault

/// The one place where a kind of failure becomes an exit status: the errors of the layers below
/// say what went wrong; the command line decides what scripts see (DESIGN.md "Exit codes").
extension ExitCode {
  /// A sign-in, refresh or revocation that ended without its result.
  package init(_ error: AuthError) {
    switch error {
    case .cancelled, .accessDenied, .noAnswer, .userCodeExpired: self = .cancelled
    case .refreshTokenRejected: self = .signInNeeded
    case .flowNotOffered, .endpointNotDiscovered: self = .usage
    // What the provider file asks for and the server does not offer: fixed in the file.
    case .missingEndpoint, .insecureEndpoint, .pushedAuthorizationUnavailable,
      .pushedAuthorizationRequiredByServer, .dpopUnsupported, .dpopKeyMissing:
      self = .failure
    case .discoveryFailed(let error): self = ExitCode(error)
    case .idTokenRejected(let error): self = ExitCode(error)
    case .identityFailed(let error): self = ExitCode(error)
    default: self = .providerError
    }
  }

  /// Discovery failed: the configured issuer itself is a configuration mistake (1); what the
  /// provider published is the provider's fault (7).
  package init(_ error: DiscoveryError) {
    switch error {
    case .invalidIssuer, .credentialsInIssuer, .unreachableIssuer: self = .failure
    default: self = .providerError
    }
  }

  /// The id_token was refused: a configuration mistake (1), or what the provider sent (7).
  package init(_ error: IDTokenError) {
    self = error == .issuerNotConfigured ? .failure : .providerError
  }

  /// The account's identity could not be read: always the provider's answer (7).
  package init(_ error: IdentityError) {
    self = .providerError
  }

  /// An account operation that did not give its result.
  package init(_ error: AccountsError) {
    switch error {
    case .malformedAccountName, .invalidLabel, .flowNotOffered: self = .usage
    case .noSuchAccount, .noAccountYet, .ambiguousAccount, .noSuchProvider: self = .notFound
    case .providerUnusable, .envFile, .labelTaken, .damagedAccount, .revocationImpossible,
      .dpopBound:
      self = .failure
    case .signInNeeded, .refreshNotStored(_, _, nil): self = .signInNeeded
    case .refreshNotStored, .refreshWaiting, .signedOutNotRemoved: self = .failure
    case .refreshStalled: self = .providerError
    case .auth(let error): self = ExitCode(error)
    case .vault(let error): self = ExitCode(error)
    }
  }

  /// The vault would not open or answer.
  package init(_ error: VaultError) {
    switch error {
    case .wrongPassphrase, .locked, .emptyPassphrase: self = .vaultLocked
    case .accountNotFound: self = .notFound
    default: self = .failure
    }
  }

  /// No passphrase could be had: cancelled at the prompt (6), else the vault stays locked (3).
  package init(_ error: PassphraseError) {
    self = error == .cancelled ? .cancelled : .vaultLocked
  }
}
