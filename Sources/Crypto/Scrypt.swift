internal import COpenSSL

/// The scrypt password-based key derivation function (RFC 7914).
public enum Scrypt {
  /// The cost parameters of one derivation, stored next to the salt so a vault opens with the
  /// parameters it was made with.
  public struct Parameters: Sendable, Equatable, Codable {
    /// CPU/memory cost `N`, a power of two greater than 1.
    public let cost: UInt64
    /// Block size `r`.
    public let blockSize: UInt32
    /// Parallelisation `p`.
    public let parallelism: UInt32

    /// Checks the parameters against RFC 7914 §2 before anything expensive happens.
    public init(cost: UInt64, blockSize: UInt32, parallelism: UInt32) throws {
      guard cost > 1, cost & (cost - 1) == 0 else {
        throw CryptoError.invalidParameter("scrypt N must be a power of two above 1, not \(cost)")
      }
      guard blockSize > 0, parallelism > 0 else {
        throw CryptoError.invalidParameter("scrypt r and p must be positive")
      }
      guard UInt64(blockSize) * UInt64(parallelism) < 1 << 30 else {
        throw CryptoError.invalidParameter("scrypt r·p must stay below 2^30")
      }
      self.cost = cost
      self.blockSize = blockSize
      self.parallelism = parallelism
    }

    /// N = 2^17, r = 8, p = 1: about 128 MiB and half a second here, the vault's default.
    public static let interactive = Parameters(uncheckedCost: 1 << 17, blockSize: 8, parallelism: 1)

    private init(uncheckedCost: UInt64, blockSize: UInt32, parallelism: UInt32) {
      self.cost = uncheckedCost
      self.blockSize = blockSize
      self.parallelism = parallelism
    }

    /// Memory the derivation needs, in bytes: 128·r·N for V plus 128·r·p for B, with headroom
    /// (about 129 MiB for `interactive`): its cap, and what an unlock must find free.
    public var memoryBound: UInt64 {
      128 * UInt64(blockSize) * (cost + UInt64(parallelism) + 2) + 1 << 20
    }
  }

  /// Derives `byteCount` bytes from `password` and `salt`.
  ///
  /// This is deliberately slow (the point of scrypt) and blocks its thread for the whole
  /// derivation: call it off any thread that must stay responsive.
  public static func deriveKey(
    password: [UInt8], salt: [UInt8], parameters: Parameters, byteCount: Int
  ) throws -> [UInt8] {
    guard byteCount > 0 else {
      throw CryptoError.invalidParameter("scrypt output length must be positive")
    }
    var output = [UInt8](repeating: 0, count: byteCount)
    // OpenSSL's default memory cap (32 MiB) is below what N = 2^17, r = 8 needs; pass our bound.
    let status = password.withUnsafeBufferPointer { passwordBytes in
      salt.withUnsafeBufferPointer { saltBytes in
        // OpenSSL treats a NULL password or salt as the empty string, which is what an empty
        // array's nil base address means.
        EVP_PBE_scrypt(
          passwordBytes.baseAddress.map {
            UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)
          },
          passwordBytes.count,
          saltBytes.baseAddress, saltBytes.count,
          parameters.cost, UInt64(parameters.blockSize), UInt64(parameters.parallelism),
          parameters.memoryBound, &output, output.count)
      }
    }
    guard status == 1 else { throw openSSLFailure("scrypt") }
    return output
  }
}
