import App
import Crypto
import Foundation
import Providers
import Sandbox
import Session
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// Everything `authtui demo` makes for itself: a private temporary folder with a throwaway vault
/// and a configuration whose provider files point every preset (and the sandbox's OpenID
/// provider) at the sandbox, which runs in this process. Nothing leaves 127.0.0.1.
struct DemoSetup: Sendable {
  /// The demo vault's passphrase (the vault protects nothing: it is deleted on exit).
  static let passphrase = "demo"
  /// The folder holding the vault and the configuration, removed by `cleanUp`.
  let folder: URL
  /// The loopback port Simkl's and Muhajir's registrations fix, registered with the sandbox.
  let redirectPort: UInt16
  /// The sandbox's port, chosen before the UI starts so that the "Other provider…" form can
  /// offer the sandbox's server that lets authtui register itself.
  let sandboxPort: UInt16
  /// The sandbox, once started.
  let sandbox = DemoSandbox()
  /// Cheap key derivation: the throwaway vault protects nothing, and the demo opens at once.
  let scrypt: Scrypt.Parameters

  /// Makes the folder and picks the redirect port.
  static func make() throws -> DemoSetup {
    let template = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("authtui-demo-XXXXXX").path
    var bytes = Array(template.utf8CString)
    guard let created = mkdtemp(&bytes) else {
      throw DemoError("cannot create a temporary folder: \(String(cString: strerror(errno)))")
    }
    let folder = URL(fileURLWithPath: String(cString: created))
    guard let port = ListenAddress.freeLoopbackPort(),
      let sandboxPort = ListenAddress.freeLoopbackPort(), sandboxPort != port
    else {
      throw DemoError("cannot find free loopback ports for the sandbox and the redirect")
    }
    return DemoSetup(
      folder: folder, redirectPort: port, sandboxPort: sandboxPort,
      scrypt: try Scrypt.Parameters(cost: 1 << 10, blockSize: 8, parallelism: 1))
  }

  /// The sandbox's server that lets authtui register itself (its `dynamic` profile): the
  /// issuer the "Other provider…" form starts with.
  var dynamicIssuer: String { "http://127.0.0.1:\(sandboxPort)" + SandboxPaths.Dynamic.issuer }

  /// The throwaway vault.
  var vault: VaultLocation { VaultLocation(path: folder.appendingPathComponent("vault.db").path) }

  /// The demo's configuration folder.
  var configuration: ConfigurationLocation {
    ConfigurationLocation(directory: folder.appendingPathComponent("config"))
  }

  /// How the UI opens the demo vault: start the sandbox, write the provider files, then create
  /// the vault with cheap key derivation and the demo passphrase.
  var vaultSetup: VaultSetup {
    let configuration = self.configuration
    let port = redirectPort
    let sandboxPort = self.sandboxPort
    let holder = sandbox
    return VaultSetup(
      location: vault, configuration: configuration, passphrase: nil, newVaultParameters: scrypt,
      prepare: { () async throws(SetupFailure) -> SecretText? in
        let sandbox: SandboxServer
        do {
          sandbox = try await SandboxServer.start(
            address: ListenAddress(port: sandboxPort),
            configuration: SandboxConfiguration(
              simklRedirectURIs: ["http://127.0.0.1:\(port)/callback"]))
        } catch {
          throw SetupFailure("the demo's sandbox provider could not start: \(error)")
        }
        do {
          try SandboxProviderFiles.write(
            to: configuration.providersDirectory, baseURL: sandbox.baseURL, redirectPort: port,
            loginTimeout: 180)
        } catch {
          throw SetupFailure("the demo could not write its provider files: \(error)")
        }
        await holder.keep(sandbox)
        return SecretText(DemoSetup.passphrase)
      })
  }

  /// What the title bar says during the demo.
  static let notice = "DEMO · throwaway vault, passphrase \"demo\""

  /// Removes the folder (the vault and the configuration).
  ///
  /// The vault's last connection may still be closing on another thread (the UI ended by a
  /// signal or a hung-up terminal), and SQLite then deletes its `-wal` and `-shm` files under
  /// the walk, which stops at the first file gone: so the walk is tried again while the folder
  /// is there.
  func cleanUp() {
    for _ in 0..<5 {
      do {
        try FileManager.default.removeItem(at: folder)
        return
      } catch {
        guard FileManager.default.fileExists(atPath: folder.path) else { return }
      }
    }
  }
}

/// Holds the demo's sandbox for the life of the run.
actor DemoSandbox {
  private(set) var server: SandboxServer?

  func keep(_ server: SandboxServer) {
    self.server = server
  }
}

/// Why the demo could not start.
struct DemoError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
