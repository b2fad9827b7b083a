import AuthCore
import Crypto

/// `authtui demo`: shows what this build can do without any network or registration.
///
/// Until the interactive UI lands this walks through the pieces that exist: a PKCE pair made
/// from the system CSPRNG, checked against its S256 challenge.
enum DemoCommand {
  static func run(console: Console) -> ExitCode {
    let pair = PKCEPair.generate()
    let recomputed = Base64URL.encode(SHA256.hash(pair.verifier))
    console.out(
      """
      authtui \(BuildInfo.version) demo

      A fresh PKCE pair (RFC 7636, S256), as every sign-in will make one:
        code_verifier   \(pair.verifier)
        code_challenge  \(pair.challenge)
        check           \(recomputed == pair.challenge ? "BASE64URL(SHA256(verifier)) matches" : "MISMATCH")

      Built so far: the crypto layer (AES-256-GCM, scrypt, SHA-256, HMAC, RS256/ES256
      verification over OpenSSL). The vault, the sign-in flows, the sandbox provider and the
      interactive UI are on their way; `authtui --help` lists what runs today.
      """)
    return .ok
  }
}
