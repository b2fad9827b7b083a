import Crypto
import Foundation

/// The keys of an unlocked vault, all derived from the one random data key.
///
/// The data key never encrypts anything itself: HMAC-SHA256 under it, with a distinct label per
/// purpose, gives the cell key and the index key, so an index value can never double as key
/// material for a cell and vice versa. Swift arrays cannot be reliably wiped, so "locking" means
/// dropping every reference to this value.
struct VaultKeys {
  /// The random 256-bit key that the passphrase wraps; rewrapped, never changed, by `passwd`.
  let dataKey: SymmetricKey
  /// AES-256-GCM key for every sealed cell.
  let cellKey: SymmetricKey
  /// HMAC-SHA256 for the blind name index, under its own key, keyed once for every row a
  /// listing reads.
  private let index: HMACSHA256.Key

  init(dataKey: SymmetricKey) throws(VaultError) {
    self.dataKey = dataKey
    let cellBytes = HMACSHA256.authenticationCode(
      for: Array("authtui vault cell key v1".utf8), key: dataKey.bytes)
    do {
      cellKey = try SymmetricKey(bytes: cellBytes)
    } catch {
      // HMAC-SHA256 always yields 32 bytes, which is exactly a key.
      throw .unexpected("derived cell key has the wrong length")
    }
    let indexKey = HMACSHA256.authenticationCode(
      for: Array("authtui vault name index key v1".utf8), key: dataKey.bytes)
    do {
      index = try HMACSHA256.Key(indexKey)
    } catch {
      throw .unexpected("cannot key HMAC-SHA256 for the name index: \(error)")
    }
  }

  /// The blind index of an account name: HMAC-SHA256 under the index key of the provider id and
  /// the label, each length-prefixed so no two different pairs share an input.
  ///
  /// Why a blind index: looking an account up by name (`authtui token simkl/alice`) becomes one
  /// indexed point read instead of decrypting every row, and a UNIQUE index on it lets SQLite
  /// itself refuse a second `simkl/alice`, even from another process, while the file still holds
  /// nothing readable: without the data key the value is 32 random-looking bytes. What it does
  /// reveal is equality: the same name always gives the same value in this vault (which is the
  /// point), so someone comparing two copies of the file can tell that a name was kept. Labels are
  /// NFC-normalised first so canonically equal labels cannot coexist.
  func nameIndex(providerID: String, label: String) -> [UInt8] {
    // ASCII is its own NFC: the common label skips Foundation's normalisation.
    let normalised =
      label.utf8.allSatisfy { $0 < 0x80 } ? label : label.precomposedStringWithCanonicalMapping
    var message: [UInt8] = []
    message.reserveCapacity(8 + providerID.utf8.count + normalised.utf8.count)
    for part in [providerID.utf8, normalised.utf8] {
      withUnsafeBytes(of: UInt32(part.count).bigEndian) { message += $0 }
      message += part
    }
    return index.authenticationCode(for: message)
  }

  /// The blind index of a provider id, for `provider_defaults`: HMAC-SHA256 under the index key
  /// of the length-prefixed id alone. One length-prefixed part can never equal the two of a
  /// `nameIndex` input (its length prefix would have to cover the whole message), so no provider
  /// index is ever an account's name index.
  func providerIndex(providerID: String) -> [UInt8] {
    let bytes = Array(providerID.utf8)
    return index.authenticationCode(for: CellCodec.bigEndian(UInt32(bytes.count)) + bytes)
  }
}
