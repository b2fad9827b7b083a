import AuthCore
import Foundation
import JSON

extension ProviderFile {
  /// Writes a provider's setup into `providers/ID.json` of `location`: `client_id`,
  /// `client_secret` when given (only for a preset that requires one, such as Google's), and
  /// `redirect_port` when given and it differs from what the file or its preset says already.
  /// Every other field of an existing file stays, in its place; a new file over a preset
  /// names it (`"preset": "simkl"`). Returns the file written.
  ///
  /// The file is replaced the way `EnvFile` replaces one (a new 0600 file beside it, synced,
  /// renamed over it): a reader sees the old file or the new one. Only a regular file of this
  /// user's is replaced: a symbolic link, a FIFO, a device or a folder at the path is refused
  /// before it is opened, and a file that is not JSON is left for the user to fix.
  @discardableResult
  public static func saveSetup(
    _ id: ProviderID, clientID: String, redirectPort: UInt16?, clientSecret: ClientSecret? = nil,
    in location: ConfigurationLocation
  ) throws(ProviderSetupError) -> URL {
    let clientID = try ProviderSetup.checkedClientID(clientID)
    let clientSecret = try clientSecret.map { secret throws(ProviderSetupError) in
      try ProviderSetup.checkedClientSecret(secret.value)
    }
    if let redirectPort { _ = try ProviderSetup.checkedPort(String(redirectPort)) }
    let url = location.providersDirectory.appendingPathComponent("\(id).json")
    do {
      try ConfigurationFile.editObject(at: url) { members, isNew in
        if isNew, ProviderCatalog.presets[id.rawValue]?.id == id {
          members = [("preset", .string(id.rawValue))]
        }
        ConfigurationFile.set("client_id", .string(clientID), in: &members)
        if let clientSecret {
          ConfigurationFile.set("client_secret", .string(clientSecret.value), in: &members)
        }
        if let redirectPort {
          let preset = members.first { $0.0 == "preset" }.flatMap { member -> String? in
            if case .string(let name) = member.1 { return name }
            return nil
          }
          let inherited = ProviderCatalog.presets[preset ?? id.rawValue]?.redirectPort
          if members.contains(where: { $0.0 == "redirect_port" }) || inherited != redirectPort {
            ConfigurationFile.set("redirect_port", .int(Int(redirectPort)), in: &members)
          }
        }
      }
    } catch {
      throw .file(path: ConfigurationLocation.display(url), reason: error.reason)
    }
    return url
  }
}
