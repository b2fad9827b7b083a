import Crypto

/// The key that signs an account's DPoP proofs (RFC 9449 §4), wherever it is kept: AuthCore
/// asks it for its public key and for signatures, and never stores it. The composition root
/// decides where the private key lives (sealed in the vault and held in memory while in use,
/// or inside the agent, which signs on request).
///
/// Only P-256 keys sign proofs (ES256, the algorithm servers commonly take and the one
/// authtui negotiates, `ProviderConfiguration.dpopAlgorithm()`).
public protocol DPoPSigner: Sendable {
  /// The public key, as the `jwk` header of every proof carries it (RFC 9449 §4.2).
  var publicParameters: JWKPublicParameters { get }
  /// An ES256 signature of `message`, JWS form `r ‖ s` (64 bytes). Errors are reported as
  /// `AuthError.dpopProofFailed` with their description, which must hold no key material.
  func signature(for message: [UInt8]) async throws -> [UInt8]
}

/// A key held in this process's memory signs for itself.
extension P256SigningKey: DPoPSigner {}
