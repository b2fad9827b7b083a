import Accounts
import Agent
import AuthCore
import Foundation
import Providers
import Vault

/// `authtui providers remove ID [--force]`: deletes the user's `providers/ID.json`, and the
/// registration authtui made with the server (RFC 7592); refused while accounts of the
/// provider remain, unless `--force`.
enum ProvidersRemoveCommand {
  static let spec = CommandSpec(
    name: "providers remove", usage: "providers remove ID [--force]",
    summary: "Remove your provider file ID.json (and the registration authtui made for it).",
    details: """
      Refused while the vault holds accounts of the provider (sign them out first), unless
      --force: they then stay in the vault, unusable until a provider of that id returns.
      The accounts are asked of a running `authtui agent`, else of the vault (its passphrase
      as for every command; no vault, no accounts). Where `providers add` registered authtui
      with the server, the registration is deleted there first (RFC 7592); when that fails
      the file is removed all the same and the message says what is left at the server. A
      built-in preset has no file to remove unless one of yours overrides it.
      """,
    arguments: ["ID"], requiredArguments: 1, options: [forceFlag]
  ).running { await run($0, console: $1) }

  static let forceFlag = OptionSpec.flag(
    "force", "remove it even while the vault holds accounts of it")

  static func run(_ invocation: Invocation, console: Console) async -> ExitCode {
    let text = invocation.arguments[0]
    do throws(CommandFailure) {
      let id: ProviderID
      do {
        id = try ProviderID(text)
      } catch {
        throw CommandFailure(exitCode: .usage, message: error.description)
      }
      let location = AccountAccess.configuration(invocation.global)
      let catalog = AccountAccess.catalog(
        invocation.global, console: console, reportProblems: false, providers: .only([id]))
      let path = location.providersDirectory.appendingPathComponent("\(id).json").path
      guard
        FileManager.default.fileExists(atPath: path)
          || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
      else {
        throw failure(
          .noFile(
            id, path: ConfigurationLocation.display(URL(fileURLWithPath: path)),
            isPreset: ProviderCatalog.presets[id.rawValue]?.id == id))
      }
      if !invocation.flag(forceFlag) {
        let accounts = try await accounts(of: id, invocation.global, console: console)
        guard accounts.isEmpty else {
          let shown = accounts.prefix(5).joined(separator: ", ")
          let more = accounts.count > 5 ? " and \(accounts.count - 5) more" : ""
          throw CommandFailure(
            exitCode: .failure,
            message: "the vault holds \(accounts.count == 1 ? "an account" : "accounts") of "
              + "\(id) (\(shown)\(more)); sign \(accounts.count == 1 ? "it" : "them") out first "
              + "(`authtui logout \(accounts[0])`), or remove the provider anyway with --force",
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
          warning =
            "authtui: the registration of \(file?.clientID ?? "its client") at the server was "
            + "not deleted: \(error.message)"
        }
      }
      let removed: String
      do {
        removed = try ProviderRemoval.removeFile(of: id, in: location)
      } catch {
        throw failure(error)
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

  /// The names of the accounts of provider `id`: from a running agent, else from the vault
  /// (none when there is no vault file).
  private static func accounts(of id: ProviderID, _ global: GlobalOptions, console: Console)
    async throws(CommandFailure) -> [String]
  {
    if let answer = await AgentAnswer.ask(
      .list, global, timeout: AgentAnswer.accountsTimeout, \.listing),
      case .success(let listing) = answer
    {
      let damaged = listing.damaged.filter { $0.name?.hasPrefix(id.rawValue + "/") == true }
      return listing.accounts.filter { $0.provider == id.rawValue }.map(\.name)
        + damaged.compactMap(\.name)
    }
    let location = VaultAccess.location(global)
    guard FileManager.default.fileExists(atPath: location.path) else { return [] }
    let book = try await AccountAccess.book(
      global, console: console, providers: .provider(id.rawValue))
    let listing: AccountListing
    do {
      listing = try await book.listing()
    } catch {
      throw AccountAccess.failure(error)
    }
    let readable = listing.accounts.filter { $0.providerID == id.rawValue }.map(\.name)
    let damaged = listing.damaged.filter { $0.providerID == id.rawValue }.map(\.reference)
    return readable + damaged
  }

  static func failure(_ error: ProviderRemovalError) -> CommandFailure {
    switch error {
    case .noFile: return CommandFailure(exitCode: .notFound, message: error.description)
    case .file: return CommandFailure(exitCode: .failure, message: error.description)
    }
  }
}
