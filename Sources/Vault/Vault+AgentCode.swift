import Crypto

/// The code that shows a request to the agent comes from a process that unlocked this vault:
/// HMAC-SHA256 of the request's words under a key derived from the vault's data key, which
/// only the passphrase (or the unlock key it wraps) yields. The agent, which unlocked the
/// vault too, checks it: only such a process, an authtui UI, may see the requests the agent
/// holds for a person and answer them, not any other process of the user.
extension Vault {
  /// The code of `message` under this vault's agent key, base64url; throws `.locked` while
  /// the vault is locked.
  public func agentCode(for message: String) throws(VaultError) -> String {
    guard let keys else { throw .locked(path: location.fileURL.path) }
    return Base64URL.encode(Self.agentCode(for: message, dataKey: keys.dataKey))
  }

  /// True when `code` is `message`'s code under this vault's agent key (compared in constant
  /// time); false too while the vault is locked, or for a code that is not base64url.
  public func isAgentCode(_ code: String, for message: String) -> Bool {
    guard let keys, let given = try? Base64URL.decode(code) else { return false }
    return ConstantTime.equals(given, Self.agentCode(for: message, dataKey: keys.dataKey))
  }

  private static func agentCode(for message: String, dataKey: SymmetricKey) -> [UInt8] {
    let key = HMACSHA256.authenticationCode(
      for: Array("authtui agent confirmation key v1".utf8), key: dataKey.bytes)
    return HMACSHA256.authenticationCode(for: Array(message.utf8), key: key)
  }
}
