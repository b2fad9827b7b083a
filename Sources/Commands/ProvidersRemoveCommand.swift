import Accounts
import Agent
import AuthCore
import Foundation
import Providers
import Vault

/// `authtui providers remove ID [--force]`: deletes the user's `providers/ID.json`, and the
/// registration authtui made with the server (RFC 7592); refused while accounts of the
/// provider remain, unless `--force`.
struct ProvidersRemoveCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "remove",
    summary: "Remove your provider file ID.json (and the registration authtui made for it).",
    details: """
      Refused while the vault holds accounts of the provider (sign them out first), unless
      --force: they then stay in the vault, unusable until a provider of that id returns.
      The accounts are asked of a running `authtui agent`, else of the vault (its passphrase
      as for every command; no vault, no accounts). Where `providers add` registered authtui
      with the server, the registration is deleted there first (RFC 7592); when that fails
      the file is kept, since it holds what deleting the registration takes, and the command
      exits 7: run it again later, or add --force to remove the file all the same, leaving
      the registration at the server. A built-in preset has no file to remove unless one of
      yours overrides it.
      """,
    arguments: [.required("ID", \.id, .providerID)],
    options: [
      .flag(
        "force", \.force,
        help: "remove it even while the vault holds accounts of it, or its registration at the "
          + "server cannot be deleted")
    ])

  var global = GlobalOptions()
  /// The provider whose file goes; nil only until the command line is read (ID is required).
  var id: ProviderID?
  /// `--force`: even while the vault holds accounts of it.
  var force = false

  func run(console: Console) async -> ExitCode {
    guard let id else { return .usage }  // read from the required ID before this runs
    do throws(CommandFailure) {
      let location = AccountAccess.configuration(global)
      let catalog = AccountAccess.catalog(
        global, console: console, reportProblems: false, providers: .only([id]))
      let path = location.providersDirectory.appendingPathComponent("\(id).json").path
      guard
        FileManager.default.fileExists(atPath: path)
          || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
      else {
        throw Self.failure(
          .noFile(
            id, path: ConfigurationLocation.display(URL(fileURLWithPath: path)),
            isPreset: ProviderCatalog.presets[id.rawValue]?.id == id))
      }
      if !force {
        let accounts = try await ProviderAccounts.held(
          of: id, global, console: console, unlock: .asking)
        if let first = accounts.first {
          let shown = accounts.prefix(5).map(\.shown).joined(separator: ", ")
          let more = accounts.count > 5 ? " and \(accounts.count - 5) more" : ""
          throw CommandFailure(
            exitCode: .failure,
            message: "the vault holds \(accounts.count == 1 ? "an account" : "accounts") of "
              + "\(id) (\(shown)\(more)); sign \(accounts.count == 1 ? "it" : "them") out first "
              + "(`\(first.signOutCommand)`), or remove the provider anyway with --force",
            code: "provider_in_use")
        }
      }
      var warning: String?
      let file = catalog.entry(id)?.file
      if let uri = file?.registrationClientURI, let token = file?.registrationAccessToken {
        do {
          try await ClientRegistrar(
            transport: URLSessionTransport(), requestTimeout: ProvidersAddCommand.requestTimeout
          ).delete(at: uri, accessToken: token)
        } catch {
          let client = file?.clientID ?? "its client"
          guard force else {
            // The file holds the registration access token: removed, the registration could
            // never be deleted by authtui.
            throw CommandFailure(
              exitCode: .providerError,
              message: "the registration of \(client) at the server could not be deleted: "
                + "\(error.message) The provider file was kept, with what deleting it takes: "
                + "run `authtui providers remove \(id)` again later, or add --force to remove "
                + "the file all the same and leave the registration at the server")
          }
          warning =
            "authtui: the registration of \(client) at the server was not deleted (\(error.message)) "
            + "and stays there: the server's administrator can remove it"
        }
      }
      let removed: String
      do {
        removed = try ProviderRemoval.removeFile(of: id, in: location)
      } catch {
        throw Self.failure(error)
      }
      if let warning { console.err(warning) }
      let registration =
        file?.registrationClientURI != nil && warning == nil
        ? "; its registration at the server was deleted too" : ""
      console.out("Removed \(removed)\(registration).")
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }

  static func failure(_ error: ProviderRemovalError) -> CommandFailure {
    switch error {
    case .noFile: return CommandFailure(exitCode: .notFound, message: error.description)
    case .file: return CommandFailure(exitCode: .failure, message: error.description)
    }
  }
}
