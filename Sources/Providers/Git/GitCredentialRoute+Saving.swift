import Foundation
import JSON

extension GitCredentialRoute {
  /// Writes this route into the `git` object of `config.json` in `location`, as
  /// `authtui git-credential setup` does: an entry for the same URL prefix (the same scheme,
  /// host and path, however it was written) is replaced in its place, a new one goes last, and
  /// every other member of the file stays as it is. The account alone is written as a string,
  /// with a user name as `{"account": …, "username": …}`. Returns the file written.
  ///
  /// The file is replaced as a provider file's setup replaces it (`ConfigurationFile.replace`:
  /// a new 0600 file beside it, synced, renamed over it), only when it is a regular file of
  /// this user's; a file that is not a JSON object, or whose `git` is not one, is left for the
  /// user to fix.
  @discardableResult
  public func save(in location: ConfigurationLocation) throws(ConfigurationWriteError) -> URL {
    let file = location.settingsFile
    let entry: OrderedJSON =
      username.map { .object([("account", .string(account)), ("username", .string($0))]) }
      ?? .string(account)
    do {
      try ConfigurationFile.editObject(at: file) {
        members, _ throws(ConfigurationFile.WriteFailure) in
        var routes: [(String, OrderedJSON)] = []
        if let git = members.first(where: { $0.0 == "git" }) {
          guard case .object(let read) = git.1 else {
            throw ConfigurationFile.WriteFailure(
              reason: "its \"git\" is not an object of URLs to accounts; fix it, then try again")
          }
          routes = read
        }
        if let same = routes.firstIndex(where: { (try? GitURLPrefix.parse($0.0).get()) == prefix })
        {
          routes[same] = (url, entry)
        } else {
          routes.append((url, entry))
        }
        ConfigurationFile.set("git", .object(routes), in: &members)
      }
    } catch {
      throw ConfigurationWriteError(
        path: ConfigurationLocation.display(file), reason: error.reason)
    }
    return file
  }
}

/// A configuration file that could not be written: its path as shown, and why.
public struct ConfigurationWriteError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file, as the user would type it (`~/.config/authtui/config.json`).
  public let path: String
  /// Why not, and what to do.
  public let reason: String

  public var description: String { "\(path): \(reason)" }
}
