import AuthCore
import Foundation

extension ProviderAddition {
  /// Refuses `id` before any request is made: a built-in preset's id (a file of that name
  /// changes the preset), a `providers/ID.json` that is there already (a file or a link)
  /// unless `replacing`, and a file `save` could not write (`checkWritable`: a folder that
  /// cannot be made or written in, a link or FIFO at the path; the folder is made when
  /// missing). `save` checks again as it writes; this spares a registration that could not
  /// be saved.
  public static func checkAvailable(
    _ id: ProviderID, in location: ConfigurationLocation, replacing: Bool
  ) throws(ProviderAdditionError) {
    if ProviderCatalog.presets[id.rawValue]?.id == id { throw .presetID(id) }
    let url = location.providersDirectory.appendingPathComponent("\(id).json")
    if !replacing,
      FileManager.default.fileExists(atPath: url.path)
        || (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) != nil
    {
      throw .exists(id, path: ConfigurationLocation.display(url))
    }
    try checkWritable(id, in: location)
  }

  /// Registers authtui at the server's `endpoint` (RFC 7591) and adopts the answer: for the
  /// browser flow, on a loopback port chosen now and fixed in the registered redirect URI. A
  /// registration the answer makes unusable is deleted again where the server allows it
  /// (RFC 7592), so no client is left behind that nobody can use. `requestTimeout` bounds each
  /// request.
  public mutating func register(
    at endpoint: URL, transport: any Transport, requestTimeout: TimeInterval
  ) async throws(ProviderAdditionError) {
    let port: UInt16?
    if flows.contains(.pkce) {
      guard let free = FixedRedirectPort.choose() else { throw .noRedirectPort }
      port = free
    } else {
      port = nil
    }
    let registrar = ClientRegistrar(transport: transport, requestTimeout: requestTimeout)
    let response: ClientRegistrationResponse
    do {
      response = try await registrar.register(
        registrationRequest(redirectPort: port), at: endpoint)
    } catch {
      throw .registration(error)
    }
    do {
      try adopt(response, redirectPort: port)
    } catch {
      if let uri = response.registrationClientURI, let token = response.registrationAccessToken {
        try? await registrar.delete(at: uri, accessToken: token)
      }
      throw .registration(.registrationFailed(error))
    }
  }
}
