import Locations

#if canImport(Glibc)
  import Glibc
#endif

/// Why a vault operation failed.
///
/// Every case is safe to show and to log: none carries a token, a passphrase or a key, and the
/// names it may carry (a provider id and label) are the ones the user typed. Each `description`
/// says what went wrong and what to do about it.
public enum VaultError: Error, Equatable, Sendable {
  /// No vault file at `path`.
  case noVault(path: String)
  /// `vault init` found a file already at `path`.
  case alreadyExists(path: String)
  /// The file or its folder could not be created; `reason` is the system's error text.
  case cannotCreate(path: String, reason: String)
  /// Someone other than the owner can read or write the file.
  case unsafePermissions(VaultPermissionProblem)
  /// The file is not an authtui vault (another SQLite file, or not SQLite at all).
  case notAVault(path: String)
  /// The vault path names something other than a regular file (a folder, a FIFO, a device):
  /// `type` is its `stat`'s `S_IFMT` bits.
  case notAFile(path: String, type: mode_t)
  /// The file was written by a newer authtui, whose schema this build does not know.
  case newerSchema(path: String, found: Int, supported: Int)
  /// The header row holds key-derivation parameters authtui never writes (another algorithm, a
  /// cost out of range, a salt of the wrong length): the file was damaged or altered. Found
  /// before any key derivation; the passphrase was not tried. `problem` names the field.
  case damagedHeader(path: String, problem: String)
  /// The passphrase does not unwrap the data key. Nothing on disk was changed.
  case wrongPassphrase(path: String)
  /// The key derivation (scrypt, `memoryBytes` of memory) failed before the passphrase could be
  /// tried: its memory could not be had. `detail` is OpenSSL's reason. Nothing was changed.
  case keyDerivationFailed(path: String, memoryBytes: UInt64, detail: String)
  /// Other processes held every turn at the key derivation (`others` of them at the end) for
  /// `waited` seconds: a burst of unlocks. Nothing was changed.
  case unlockTurnTimedOut(path: String, waited: Int, others: Int)
  /// An empty passphrase was offered for a new vault or a passphrase change.
  case emptyPassphrase
  /// An operation that needs the data key ran before `unlock`, or after `lock`.
  case locked(path: String)
  /// The vault was closed.
  case closed(path: String)
  /// An account needs a non-empty provider id and label.
  case invalidAccountName
  /// No account has this id (it was deleted, perhaps by another process).
  case accountNotFound(AccountID)
  /// Another account already has this provider id and label.
  case duplicateAccount(providerID: String, label: String)
  /// The account's sealed cells failed authentication or decoding.
  case accountDamaged(AccountID, AccountDamage)
  /// The refresh lease expired and another holder took it over (or the account was deleted):
  /// the caller's refresh result must not be written.
  case leaseLost(AccountID)
  /// Another process kept the vault locked for longer than the busy timeout.
  case busy(path: String)
  /// A uniqueness rule of the schema refused a write (the vault maps the expected ones to
  /// `duplicateAccount`; any other is a bug).
  case constraint(String)
  /// A cryptographic step failed where it cannot fail (a bug, or a broken OpenSSL).
  case unexpected(String)
  /// The vault cannot be written, for the reason `block` says: what only reads still works.
  case readOnly(path: String, VaultWriteBlock)
  /// SQLite or the file system failed (disk full, I/O error, corruption); `detail` is its text.
  case storage(path: String, detail: String)
  /// The side file `path` (`RefreshSideFile`) could not be given its room before a refresh, so
  /// the refresh was not sent: its answer could not be kept safe. `detail` is the system's text.
  case noRoomForRefresh(path: String, detail: String)
}

extension VaultError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .noVault(let path):
      return "there is no vault at \(path); create one with `authtui vault init`"
        + " (or point --vault / AUTHTUI_VAULT at an existing one)"
    case .alreadyExists(let path):
      return "a vault already exists at \(path); change its passphrase with"
        + " `authtui vault passwd`, or choose another path with --vault"
    case .cannotCreate(let path, let reason):
      return "cannot create the vault at \(path): \(reason); choose a writable location with"
        + " --vault or AUTHTUI_VAULT"
    case .unsafePermissions(let problem):
      return problem.description
    case .notAVault(let path):
      return "\(path) is not an authtui vault; point --vault or AUTHTUI_VAULT at the vault file,"
        + " or move this file away and run `authtui vault init`"
    case .notAFile(let path, let type):
      return "the vault path \(path) is \(FileType.name(of: type)), not a vault file; point "
        + "--vault or AUTHTUI_VAULT at the vault file"
        + (type == S_IFDIR ? " (for example \(path)/vault.db)" : "")
    case .newerSchema(let path, let found, let supported):
      return "the vault \(path) uses schema version \(found), newer than the \(supported) this"
        + " authtui understands; it was left untouched: upgrade authtui to open it"
    case .damagedHeader(let path, let problem):
      return "the header of the vault \(path) is damaged: \(problem); the passphrase was not"
        + " tried and nothing was changed: restore the vault from a backup"
    case .wrongPassphrase(let path):
      return "the passphrase does not open the vault \(path); nothing was changed:"
        + " check the passphrase (or the AUTHTUI_PASSPHRASE* variable that supplied it) and try again"
    case .keyDerivationFailed(let path, let memoryBytes, let detail):
      return "the memory ran out for the key derivation that unlocks the vault \(path) (scrypt"
        + " needs \(memoryBytes >> 20) MiB: \(detail)); nothing was changed: close other programs,"
        + " or run `authtui agent start` so that the vault is unlocked once for all commands"
    case .unlockTurnTimedOut(let path, let waited, let others):
      let unlocking = others == 1 ? "1 other process was" : "\(others) other processes were"
      return "gave up after \(waited) s waiting for a turn to unlock the vault \(path):"
        + " \(unlocking) unlocking it, each with its own key derivation; nothing was changed:"
        + " run `authtui agent start` so that the vault is unlocked once for all commands, or"
        + " try again later"
    case .emptyPassphrase:
      return "the passphrase is empty; choose a passphrase of several words"
    case .locked(let path):
      return "the vault \(path) is locked; unlock it with its passphrase first"
    case .closed(let path):
      return "the vault \(path) was closed; open it again"
    case .invalidAccountName:
      return "an account needs a provider id and a non-empty label"
    case .accountNotFound(let id):
      return "no account has id \(id); it may have been removed by another authtui;"
        + " `authtui list` shows the accounts there are"
    case .duplicateAccount(let providerID, let label):
      return "an account \(providerID)/\(label) already exists; choose another label,"
        + " or sign out of that account first"
    case .accountDamaged(let id, let damage):
      return "account \(id) is damaged: \(damage); the other accounts are fine:"
        + " remove this one with `authtui logout '\(id)' --local-only` and sign in again"
    case .leaseLost(let id):
      return "the refresh of account \(id) took longer than its lease and another process took"
        + " over; its result was discarded: read the account again"
    case .busy(let path):
      return "another authtui process kept the vault \(path) busy for too long; try again"
        + " (`fuser '\(path)'` shows which process holds it)"
    case .constraint(let detail):
      return "the vault refused a write (\(detail)); this is a bug in authtui: please report it"
    case .unexpected(let detail):
      return "the vault failed unexpectedly (\(detail)); this is a bug in authtui or its"
        + " OpenSSL: please report it"
    case .readOnly(let path, let block):
      let fix: String
      switch block {
      case .readOnlyFileSystem:
        fix =
          "it is on a read-only file system; remount that file system read-write (or move the"
          + " vault to one that is)"
      case .readOnlyFolder(let folder):
        fix =
          "its folder \(folder) is read-only (SQLite writes its journal beside the file); run"
          + " `chmod u+w '\(folder)'`"
      case .readOnlyFile:
        fix = "the file is read-only; run `chmod 600 '\(path)'`"
      }
      return "the vault \(path) cannot be written: \(fix) and try again (listing and valid"
        + " tokens work without it)"
    case .storage(let path, let detail):
      return "the vault \(path) could not be read or written (\(detail)); check the disk"
        + " (free space, permissions) and try again"
    case .noRoomForRefresh(let path, let detail):
      return "there is no room on the disk to store a refreshed token safely (\(path) could not"
        + " be given its \(RefreshSideFile.capacity / 1024) KiB: \(detail)), so nothing was sent"
        + " to the provider and the tokens are as they were: free space on that disk, then run"
        + " the command again"
    }
  }
}

/// What is wrong with a damaged account; never names the account, never shows a cell's bytes.
public enum AccountDamage: Error, Equatable, Sendable, CustomStringConvertible {
  /// The cell failed AES-GCM authentication: its bytes were altered, it was copied from another
  /// account, column or vault, or it is missing.
  case cellRejected(column: String)
  /// The cell authenticated but its content does not decode (a bug, or a format from elsewhere).
  case cellMalformed(column: String)
  /// The row's lookup index does not match its sealed provider id and label.
  case nameIndexMismatch

  public var description: String {
    switch self {
    case .cellRejected(let column):
      return "its sealed \(column) cell failed authentication (altered, or copied from elsewhere)"
    case .cellMalformed(let column):
      return "its sealed \(column) cell does not decode"
    case .nameIndexMismatch:
      return "its lookup index does not match its sealed name (rows were altered)"
    }
  }
}
