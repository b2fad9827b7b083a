internal import COpenSSL

extension SigningKey {
  static func generateWithOpenSSL(_ algorithm: SignatureAlgorithm) throws -> SigningKey {
    let generated: OpaquePointer?
    switch algorithm {
    case .rs256: generated = authtui_generate_rsa_key(2048)
    case .es256: generated = authtui_generate_p256_key()
    }
    guard let generated else { throw openSSLFailure("key generation") }
    let key = OpenSSLKey(owning: generated)
    let der = try key.privateKeyDER()

    let parameters: JWKPublicParameters
    switch algorithm {
    case .rs256:
      parameters = .rsa(
        modulus: try key.bigNumberParameter(OSSL_PKEY_PARAM_RSA_N, width: nil),
        exponent: try key.bigNumberParameter(OSSL_PKEY_PARAM_RSA_E, width: nil))
    case .es256:
      parameters = .p256(
        x: try key.bigNumberParameter(OSSL_PKEY_PARAM_EC_PUB_X, width: 32),
        y: try key.bigNumberParameter(OSSL_PKEY_PARAM_EC_PUB_Y, width: 32))
    }
    return SigningKey(algorithm: algorithm, privateKeyDER: der, publicParameters: parameters)
  }

  func signWithOpenSSL(_ message: [UInt8]) throws -> [UInt8] {
    let key = try OpenSSLKey.privateKey(der: privateKeyDER)
    let context = try DigestContext()
    guard EVP_DigestSignInit(context.pointer, nil, EVP_sha256(), nil, key.pointer) == 1 else {
      throw openSSLFailure("signature init")
    }
    var length = 0
    guard
      message.withUnsafeBufferPointer({
        EVP_DigestSign(context.pointer, nil, &length, $0.baseAddress, $0.count)
      }) == 1
    else { throw openSSLFailure("signature length") }
    var signature = [UInt8](repeating: 0, count: length)
    guard
      message.withUnsafeBufferPointer({
        EVP_DigestSign(context.pointer, &signature, &length, $0.baseAddress, $0.count)
      }) == 1
    else { throw openSSLFailure("signature") }
    signature.removeLast(signature.count - length)
    switch algorithm {
    case .rs256: return signature
    case .es256: return try Self.rawECDSASignature(der: signature)
    }
  }

  /// Turns OpenSSL's DER ECDSA-Sig-Value into JWS `r ‖ s` with each half padded to 32 bytes.
  private static func rawECDSASignature(der: [UInt8]) throws -> [UInt8] {
    let parsed = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
      var cursor = buffer.baseAddress
      return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
    }
    guard let parsed else { throw openSSLFailure("ECDSA signature decoding") }
    defer { ECDSA_SIG_free(parsed) }
    var raw = [UInt8](repeating: 0, count: 64)
    let rWritten = raw.withUnsafeMutableBufferPointer { buffer in
      BN_bn2binpad(ECDSA_SIG_get0_r(parsed), buffer.baseAddress, 32)
    }
    let sWritten = raw.withUnsafeMutableBufferPointer { buffer in
      BN_bn2binpad(ECDSA_SIG_get0_s(parsed), buffer.baseAddress.map { $0 + 32 }, 32)
    }
    guard rWritten == 32, sWritten == 32 else { throw openSSLFailure("ECDSA signature encoding") }
    return raw
  }
}

extension OpenSSLKey {
  /// The private key in its type-specific DER form (`i2d_PrivateKey`), which
  /// `OpenSSLKey.privateKey(der:)` reads back.
  func privateKeyDER() throws -> [UInt8] {
    let length = i2d_PrivateKey(pointer, nil)
    guard length > 0 else { throw openSSLFailure("private key encoding") }
    var der = [UInt8](repeating: 0, count: Int(length))
    let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
      var cursor = buffer.baseAddress
      return i2d_PrivateKey(pointer, &cursor)
    }
    guard written == length else { throw openSSLFailure("private key encoding") }
    return der
  }

  /// Reads one BIGNUM parameter (`n`, `e`, `qx`, `qy`) as big-endian bytes, left-padded to `width`.
  func bigNumberParameter(_ name: String, width: Int?) throws -> [UInt8] {
    var number: OpaquePointer? = nil
    guard EVP_PKEY_get_bn_param(pointer, name, &number) == 1, let number else {
      throw openSSLFailure("reading key parameter \(name)")
    }
    defer { BN_free(number) }
    let byteCount = width ?? Int((BN_num_bits(number) + 7) / 8)
    var bytes = [UInt8](repeating: 0, count: byteCount)
    guard BN_bn2binpad(number, &bytes, Int32(byteCount)) == Int32(byteCount) else {
      throw openSSLFailure("encoding key parameter \(name)")
    }
    return bytes
  }
}

extension SigningKey {
  /// An ES256 key from its private scalar; OpenSSL derives the public point.
  static func p256(scalar: [UInt8]) throws -> SigningKey {
    let key = try OpenSSLKey.privateKey(der: DER.p256PrivateKey(scalar: scalar))
    let parameters = JWKPublicParameters.p256(
      x: try key.bigNumberParameter(OSSL_PKEY_PARAM_EC_PUB_X, width: 32),
      y: try key.bigNumberParameter(OSSL_PKEY_PARAM_EC_PUB_Y, width: 32))
    return SigningKey(
      algorithm: .es256, privateKeyDER: try key.privateKeyDER(), publicParameters: parameters)
  }

  /// An ES256 key's private scalar `d`, 32 bytes big-endian.
  func privateScalar() throws -> [UInt8] {
    guard algorithm == .es256 else {
      throw CryptoError.invalidParameter("only a P-256 key has a 32-byte private scalar")
    }
    return try OpenSSLKey.privateKey(der: privateKeyDER).bigNumberParameter(
      OSSL_PKEY_PARAM_PRIV_KEY, width: 32)
  }
}
