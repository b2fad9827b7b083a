import AuthCore
import Foundation
import JSON

#if canImport(Glibc)
  import Glibc
#endif

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
    let folder = location.providersDirectory
    let url = folder.appendingPathComponent("\(id).json")
    let shown = ConfigurationLocation.display(url)
    func refuse(_ reason: String) -> ProviderSetupError { .file(path: shown, reason: reason) }
    do {
      try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw refuse(
        "its folder cannot be created (\(error.localizedDescription)); check "
          + ConfigurationLocation.display(location.directory))
    }
    let existing: ConfigurationFile.FileIdentity?
    do {
      existing = try ConfigurationFile.existingFile(at: url.path)
    } catch {
      throw refuse(error.reason)
    }
    var members: [(String, OrderedJSON)] = []
    if existing != nil {
      let text: String
      do {
        text = try ConfigurationFile.read(url)
      } catch {
        throw refuse(error.description)
      }
      let document: JSONDocument
      do {
        document = try JSONParser.parse(text)
      } catch {
        throw refuse("\(error); fix the file (or remove it), then try again")
      }
      guard case .object(let read) = document.ordered else {
        throw refuse("it is not a JSON object; fix the file (or remove it), then try again")
      }
      members = read
    } else if ProviderCatalog.presets[id.rawValue]?.id == id {
      members = [("preset", .string(id.rawValue))]
    }
    set("client_id", .string(clientID), in: &members)
    if let clientSecret { set("client_secret", .string(clientSecret.value), in: &members) }
    if let redirectPort {
      let preset = members.first { $0.0 == "preset" }.flatMap { member -> String? in
        if case .string(let name) = member.1 { return name }
        return nil
      }
      let inherited = ProviderCatalog.presets[preset ?? id.rawValue]?.redirectPort
      if members.contains(where: { $0.0 == "redirect_port" }) || inherited != redirectPort {
        set("redirect_port", .int(Int(redirectPort)), in: &members)
      }
    }
    let text = OrderedJSON.object(members).prettyText + "\n"
    do {
      try ConfigurationFile.replace(url.path, expecting: existing, with: text)
    } catch {
      throw refuse(error.reason)
    }
    return url
  }

  /// Sets the member `name` where it is, or adds it at the end.
  private static func set(
    _ name: String, _ value: OrderedJSON, in members: inout [(String, OrderedJSON)]
  ) {
    if let index = members.firstIndex(where: { $0.0 == name }) {
      members[index].1 = value
    } else {
      members.append((name, value))
    }
  }
}
