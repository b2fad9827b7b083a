import AuthCore
import Crypto
import Foundation
import Vault

extension TokenSet {
  /// True when the access token is DPoP-bound (`token_type` `DPoP`, RFC 9449 §5, §7.1): it
  /// works only as `Authorization: DPoP TOKEN` with a proof of the account's key, so a copy
  /// of it alone is useless.
  public var isDPoPBound: Bool { tokenType?.lowercased() == "dpop" }
}

/// The DPoP keys of accounts (RFC 9449): made at sign-in when the provider uses DPoP, kept in
/// the vault with the account, loaded to sign the proofs of its refreshes, revocations and
/// resource requests. The private key stays in this process's memory (a `P256SigningKey`,
/// which never prints it) and in the vault, nowhere else.
extension AccountBook {
  /// A fresh key for a sign-in with `client`, when its provider uses DPoP
  /// (`ProviderConfiguration.dpopAlgorithm()`: `auto` with ES256 offered, or `required`);
  /// nil when it does not. Throws when `dpop` is `required` and the server offers no
  /// algorithm authtui signs with, before anything is sent.
  static func signInKey(for client: ProviderClient) throws(AccountsError) -> P256SigningKey? {
    do {
      guard try client.configuration.dpopAlgorithm() != nil else { return nil }
    } catch {
      throw .auth(error)
    }
    do {
      return try P256SigningKey.generate()
    } catch {
      throw .auth(.dpopProofFailed("no key pair could be made: \(error)"))
    }
  }

  /// The key `record` holds, nil when it holds none. A DPoP-bound account without one has
  /// lost its key row (the file was altered): that is the account's damage, reported as such
  /// rather than as the provider's refusal of a request sent without a proof.
  public func dpopKey(of record: AccountRecord) async throws(AccountsError) -> P256SigningKey? {
    let key = try await vaulted { vault throws(VaultError) in try await vault.dpopKey(of: record.id)
    }
    if key == nil && record.tokens.isDPoPBound {
      throw .vault(.accountDamaged(record.id, .cellRejected(column: "dpop_keys.private_key")))
    }
    return key
  }

  /// A client for `record`'s provider that signs its DPoP proofs with `record`'s key, when it
  /// holds one (else `client(for:)`'s).
  public func client(signingFor record: AccountRecord) async throws(AccountsError)
    -> ProviderClient
  {
    let providerID = try self.providerID(named: record.providerID)
    let key = try await dpopKey(of: record)
    let client = try await client(for: providerID).signingProofs(with: key)
    if let moved = TokenOrigin.moved(record, to: client) {
      throw .signInNeeded(
        try record.accountName,
        reason: .providerMoved(signedInAt: moved.signedInAt, now: moved.now))
    }
    return client
  }

  /// A DPoP proof (RFC 9449 §4, §7) for a request of `method` to `url` carrying `record`'s
  /// DPoP-bound `accessToken`: `htm`, `htu`, `iat`, a fresh `jti`, `ath`, and the latest nonce
  /// that server gave this book, if any. Signed here, with the key from the vault; nothing is
  /// sent (not even the provider's discovery: a proof needs none of its endpoints).
  public func resourceProof(
    for record: AccountRecord, accessToken: String, method: String, url: URL
  ) async throws(AccountsError) -> String {
    let provider = try openIDProvider(try providerID(named: record.providerID))
    let client = ProviderClient(
      configuration: provider.baseConfiguration, transport: transport, clock: clock,
      requestTimeout: requestTimeout, dpopKey: try await dpopKey(of: record),
      dpopNonces: dpopNonces, random: AnyRandomSource(random))
    do {
      return try await client.resourceProof(method: method, url: url, accessToken: accessToken)
    } catch {
      throw .auth(error)
    }
  }
}
