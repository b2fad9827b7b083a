import Crypto

/// How a passphrase and the header's salt and parameters become the key-encryption key: scrypt,
/// or a stand-in with which tests show when a derivation runs (and that none runs for a damaged
/// header).
package struct KeyDerivation: Sendable {
  /// Derives the 32-byte key-encryption key.
  package let derive:
    @Sendable (_ passphrase: [UInt8], _ salt: [UInt8], _ parameters: Scrypt.Parameters) throws ->
      [UInt8]

  package init(
    derive:
      @escaping @Sendable (
        _ passphrase: [UInt8], _ salt: [UInt8], _ parameters: Scrypt.Parameters
      ) throws -> [UInt8]
  ) {
    self.derive = derive
  }

  /// scrypt (RFC 7914) with the header's parameters: what every vault uses.
  package static let scrypt = KeyDerivation { passphrase, salt, parameters in
    try Scrypt.deriveKey(
      password: passphrase, salt: salt, parameters: parameters, byteCount: SymmetricKey.byteCount)
  }
}
