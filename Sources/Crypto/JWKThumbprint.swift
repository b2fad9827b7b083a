/// JSON Web Key thumbprints (RFC 7638): the SHA-256 of a key's required members written as
/// canonical JSON, base64url. A DPoP-bound token names its key by it (`jkt`, RFC 9449 §6.1).
public enum JWKThumbprint {
  /// The canonical JSON of RFC 7638 §3.3 for `members` (name and string value): the members
  /// in the lexicographic order of their names' code points, no whitespace, strings escaped
  /// only where JSON requires (`"`, `\` and the controls below U+0020). Every required member
  /// of the key types JOSE defines is a string, so no other value is needed. Names must be
  /// distinct.
  public static func canonicalJSON(_ members: [(name: String, value: String)]) -> String {
    let sorted = members.sorted {
      $0.name.unicodeScalars.lexicographicallyPrecedes($1.name.unicodeScalars) {
        $0.value < $1.value
      }
    }
    let written = sorted.map { quoted($0.name) + ":" + quoted($0.value) }
    return "{" + written.joined(separator: ",") + "}"
  }

  /// `BASE64URL(SHA-256(canonicalJSON(members)))` (RFC 7638 §3.1).
  public static func thumbprint(of members: [(name: String, value: String)]) -> String {
    Base64URL.encode(SHA256.hash(canonicalJSON(members)))
  }

  private static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}

extension JWKPublicParameters {
  /// The members RFC 7638 §3.2 requires for this key type, values base64url: `e`, `kty`, `n`
  /// for RSA (numbers without leading zero bytes, RFC 7518 §6.3.1); `crv`, `kty`, `x`, `y`
  /// for P-256 (coordinates of 32 bytes, RFC 7518 §6.2.1). Also the public JWK a DPoP proof
  /// carries (RFC 9449 §4.2), which needs no more.
  public var requiredMembers: [(name: String, value: String)] {
    switch self {
    case .rsa(let modulus, let exponent):
      return [
        ("e", Base64URL.encode(exponent.drop { $0 == 0 })), ("kty", "RSA"),
        ("n", Base64URL.encode(modulus.drop { $0 == 0 })),
      ]
    case .p256(let x, let y):
      return [
        ("crv", "P-256"), ("kty", "EC"), ("x", Base64URL.encode(x)), ("y", Base64URL.encode(y)),
      ]
    }
  }

  /// The key's RFC 7638 thumbprint with SHA-256, base64url.
  public var thumbprint: String { JWKThumbprint.thumbprint(of: requiredMembers) }
}
