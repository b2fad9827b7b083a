internal import CSQLite
import Foundation

#if canImport(Glibc)
  import Glibc
#endif
#if DEBUG
  import Synchronization
#endif

/// Fails the vault's Nth write, sync, truncation or allocation, the way SQLite tests itself
/// (its `test_vfs.c` "ioerr" injection): debug builds only, for the fault-injection tests that
/// drive the built binary. A release build has none of it: every call here is the system call
/// itself, and SQLite opens its default VFS.
///
/// Why not `strace -e inject=…:when=N`: strace counts calls per thread, and the vault's work runs
/// on a dispatch queue whose jobs land on whichever worker thread is free, so "the Nth write"
/// names a different write from run to run. Here one counter in the process numbers every
/// write-side operation on the vault's files (the SQLite database, its WAL and journal through
/// a VFS that wraps the default one, and the side file `RefreshSideFile` through the functions
/// below), whatever thread does it.
///
/// `AUTHTUI_TEST_VAULT_FAULT=N:ERRNO` fails operation N once; `N+:ERRNO` fails N and every one
/// after it (a disk that stays full; writes into the side file's allocated room still work
/// there, as on a real full disk). ERRNO is `ENOSPC` or `EIO`. `AUTHTUI_TEST_VAULT_FAULT_LOG=
/// PATH` appends one line per operation (`N KIND FILE`), so a test can count them first.
enum VaultFaults {
  #if DEBUG
    /// The VFS to open the vault with, registered on first use when a variable asks for faults.
    static let vfsName: String? = FaultVFS.registered

    /// Counts one operation; the errno to fail it with, or 0.
    static func check(_ kind: String, path: String) -> Int32 {
      FaultPlan.current.check(kind, file: URL(fileURLWithPath: path).lastPathComponent)
    }
  #else
    static let vfsName: String? = nil
  #endif

  /// `posix_fallocate`: 0, or the error number.
  static func allocate(_ descriptor: Int32, size: Int, path: String) -> Int32 {
    #if DEBUG
      let injected = check("allocate", path: path)
      if injected != 0 { return injected }
    #endif
    return posix_fallocate(descriptor, 0, off_t(size))
  }

  /// `pwrite`.
  static func write(
    _ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, at offset: Int, path: String
  ) -> Int {
    #if DEBUG
      let injected = check("write", path: path)
      if injected != 0 {
        errno = injected
        return -1
      }
    #endif
    return pwrite(descriptor, bytes, count, off_t(offset))
  }

  /// `fsync`.
  static func sync(_ descriptor: Int32, path: String) -> Int32 {
    #if DEBUG
      let injected = check("sync", path: path)
      if injected != 0 {
        errno = injected
        return -1
      }
    #endif
    return fsync(descriptor)
  }
}

#if DEBUG
  /// What the variables ask for, read once.
  private struct FaultPlan: Sendable {
    let first: Int
    let persistent: Bool
    let errorNumber: Int32
    let log: Int32

    static let current = FaultPlan(environment: ProcessInfo.processInfo.environment)

    var isActive: Bool { first > 0 || log >= 0 }

    init(environment: [String: String]) {
      log =
        environment["AUTHTUI_TEST_VAULT_FAULT_LOG"].map {
          open($0, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, mode_t(0o600))
        } ?? -1
      let parts = (environment["AUTHTUI_TEST_VAULT_FAULT"] ?? "").split(separator: ":")
      guard parts.count == 2 else {
        (first, persistent, errorNumber) = (0, false, 0)
        return
      }
      persistent = parts[0].hasSuffix("+")
      first = Int(parts[0].trimmingCharacters(in: CharacterSet(charactersIn: "+"))) ?? 0
      errorNumber = parts[1] == "EIO" ? EIO : ENOSPC
    }

    /// Numbers one operation, logs it, and says whether it fails.
    func check(_ kind: String, file: String) -> Int32 {
      let number = faultCounter.add(1, ordering: .sequentiallyConsistent).newValue
      // A disk that stays full still takes writes into the side file's room, which is
      // allocated already: only the Nth operation itself fails there.
      let allocated = file.hasSuffix(RefreshSideFile.suffix) && kind != "allocate"
      let fails = first > 0 && (number == first || (persistent && number > first && !allocated))
      if log >= 0 {
        let line = Array("\(number) \(kind) \(file)\(fails ? " failed" : "")\n".utf8)
        _ = line.withUnsafeBytes { Glibc.write(log, $0.baseAddress, $0.count) }
      }
      return fails ? errorNumber : 0
    }
  }

  private let faultCounter = Atomic<Int>(0)

  /// A VFS over SQLite's default one whose files fail their writes, syncs and truncations as
  /// `FaultPlan` says; every other method is the default file's own.
  private enum FaultVFS {
    static let name = "authtui-faults"
    /// Our part of each file: its methods pointer, then the default VFS's file.
    static let headerSize = 16

    static let registered: String? = {
      guard FaultPlan.current.isActive, let base = sqlite3_vfs_find(nil) else { return nil }
      baseVFS = base
      let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
      vfs.initialize(to: base.pointee)
      vfs.pointee.szOsFile = Int32(headerSize) + base.pointee.szOsFile
      vfs.pointee.zName = UnsafePointer(strdup(name))
      vfs.pointee.pNext = nil
      vfs.pointee.xOpen = { _, path, file, flags, outFlags in
        guard let file, let base = FaultVFS.baseVFS, let open = base.pointee.xOpen else {
          return SQLITE_ERROR
        }
        let inner = FaultVFS.inner(file)
        let status = open(base, path, inner, flags, outFlags)
        file.pointee.pMethods =
          status == SQLITE_OK && inner.pointee.pMethods != nil
          ? UnsafePointer(FaultVFS.methods) : nil
        if status == SQLITE_OK, inner.pointee.pMethods == nil { return SQLITE_ERROR }
        let name = path.map { URL(fileURLWithPath: String(cString: $0)).lastPathComponent }
        FaultVFS.names[UnsafeMutableRawPointer(file)] = name ?? "temporary"
        return status
      }
      sqlite3_vfs_register(vfs, 0)
      return name
    }()

    nonisolated(unsafe) static var baseVFS: UnsafeMutablePointer<sqlite3_vfs>?
    /// The file name of each open file, for the log; touched only by the thread SQLite runs
    /// on at the time, which the vault's actor serialises.
    nonisolated(unsafe) static var names: [UnsafeMutableRawPointer: String] = [:]

    static func inner(_ file: UnsafeMutablePointer<sqlite3_file>) -> UnsafeMutablePointer<
      sqlite3_file
    > {
      (UnsafeMutableRawPointer(file) + headerSize).assumingMemoryBound(to: sqlite3_file.self)
    }

    static func fault(_ kind: String, _ file: UnsafeMutablePointer<sqlite3_file>) -> Int32 {
      FaultPlan.current.check(kind, file: names[UnsafeMutableRawPointer(file)] ?? "unknown")
    }

    nonisolated(unsafe) static let methods: UnsafeMutablePointer<sqlite3_io_methods> = {
      let methods = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
      methods.initialize(
        to: sqlite3_io_methods(
          iVersion: 3,
          xClose: { file in
            guard let file, let real = FaultVFS.real(file) else { return SQLITE_ERROR }
            FaultVFS.names[UnsafeMutableRawPointer(file)] = nil
            return real.xClose?(FaultVFS.inner(file)) ?? SQLITE_OK
          },
          xRead: { file, buffer, amount, offset in
            guard let file, let real = FaultVFS.real(file) else { return SQLITE_IOERR }
            return real.xRead?(FaultVFS.inner(file), buffer, amount, offset) ?? SQLITE_IOERR
          },
          xWrite: { file, buffer, amount, offset in
            guard let file, let real = FaultVFS.real(file) else { return SQLITE_IOERR }
            let injected = FaultVFS.fault("write", file)
            if injected != 0 { return injected == ENOSPC ? SQLITE_FULL : SQLITE_IOERR }
            return real.xWrite?(FaultVFS.inner(file), buffer, amount, offset)
              ?? SQLITE_IOERR
          },
          xTruncate: { file, size in
            guard let file, let real = FaultVFS.real(file) else { return SQLITE_IOERR }
            if FaultVFS.fault("truncate", file) != 0 { return SQLITE_IOERR }
            return real.xTruncate?(FaultVFS.inner(file), size) ?? SQLITE_IOERR
          },
          xSync: { file, flags in
            guard let file, let real = FaultVFS.real(file) else { return SQLITE_IOERR }
            if FaultVFS.fault("sync", file) != 0 { return SQLITE_IOERR }
            return real.xSync?(FaultVFS.inner(file), flags) ?? SQLITE_IOERR
          },
          xFileSize: { file, size in
            guard let file, let real = FaultVFS.real(file) else { return SQLITE_IOERR }
            return real.xFileSize?(FaultVFS.inner(file), size) ?? SQLITE_IOERR
          },
          xLock: { file, lock in
            guard let file, let real = FaultVFS.real(file) else { return SQLITE_IOERR }
            return real.xLock?(FaultVFS.inner(file), lock) ?? SQLITE_IOERR
          },
          xUnlock: { file, lock in
            guard let file, let real = FaultVFS.real(file) else { return SQLITE_IOERR }
            return real.xUnlock?(FaultVFS.inner(file), lock) ?? SQLITE_IOERR
          },
          xCheckReservedLock: { file, result in
            guard let file, let real = FaultVFS.real(file) else { return SQLITE_IOERR }
            return real.xCheckReservedLock?(FaultVFS.inner(file), result) ?? SQLITE_IOERR
          },
          xFileControl: { file, operation, argument in
            guard let file, let real = FaultVFS.real(file) else { return SQLITE_NOTFOUND }
            return real.xFileControl?(FaultVFS.inner(file), operation, argument)
              ?? SQLITE_NOTFOUND
          },
          xSectorSize: { file in
            guard let file, let real = FaultVFS.real(file) else { return 4096 }
            return real.xSectorSize?(FaultVFS.inner(file)) ?? 4096
          },
          xDeviceCharacteristics: { file in
            guard let file, let real = FaultVFS.real(file) else { return 0 }
            return real.xDeviceCharacteristics?(FaultVFS.inner(file)) ?? 0
          },
          xShmMap: { file, page, size, extend, pointer in
            guard let file, let real = FaultVFS.real(file) else { return SQLITE_IOERR }
            return real.xShmMap?(FaultVFS.inner(file), page, size, extend, pointer)
              ?? SQLITE_IOERR
          },
          xShmLock: { file, offset, count, flags in
            guard let file, let real = FaultVFS.real(file) else { return SQLITE_IOERR }
            return real.xShmLock?(FaultVFS.inner(file), offset, count, flags)
              ?? SQLITE_IOERR
          },
          xShmBarrier: { file in
            guard let file, let real = FaultVFS.real(file) else { return }
            real.xShmBarrier?(FaultVFS.inner(file))
          },
          xShmUnmap: { file, delete in
            guard let file, let real = FaultVFS.real(file) else { return SQLITE_OK }
            return real.xShmUnmap?(FaultVFS.inner(file), delete) ?? SQLITE_OK
          },
          xFetch: { file, offset, amount, pointer in
            guard let file, let real = FaultVFS.real(file) else { return SQLITE_IOERR }
            guard let fetch = real.xFetch else {
              pointer?.pointee = nil
              return SQLITE_OK
            }
            return fetch(FaultVFS.inner(file), offset, amount, pointer)
          },
          xUnfetch: { file, offset, pointer in
            guard let file, let real = FaultVFS.real(file) else { return SQLITE_OK }
            return real.xUnfetch?(FaultVFS.inner(file), offset, pointer) ?? SQLITE_OK
          }))
      return methods
    }()

    /// The default VFS's methods of the file inside `file`.
    static func real(_ file: UnsafeMutablePointer<sqlite3_file>) -> sqlite3_io_methods? {
      inner(file).pointee.pMethods?.pointee
    }
  }
#endif
