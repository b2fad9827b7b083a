import AuthCore
import Isolation
import Providers

/// The UI's save of a provider's setup form: the client id (and redirect port, and client
/// secret where the provider needs one) written into `providers/ID.json`, keeping the file's
/// other fields (`ProviderFile.saveSetup`). The write and its fsyncs run on a thread of their
/// own, off the cooperative pool.
public enum ProviderSetupSave {
  /// Saves the setup in `configuration`; nil, or why it was not saved.
  public static func save(
    _ provider: ProviderID, clientID: String, redirectPort: UInt16?,
    clientSecret: ClientSecret?, in configuration: ConfigurationLocation
  ) async -> ProviderSetupError? {
    await onOwnThread(named: "provider-setup") { () -> ProviderSetupError? in
      do throws(ProviderSetupError) {
        try ProviderFile.saveSetup(
          provider, clientID: clientID, redirectPort: redirectPort, clientSecret: clientSecret,
          in: configuration)
        return nil
      } catch {
        return error
      }
    }
  }
}
