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
    let shown = ConfigurationLocation.display(file)
    func refuse(_ reason: String) -> ConfigurationWriteError {
      ConfigurationWriteError(path: shown, reason: reason)
    }
    do {
      try FileManager.default.createDirectory(
        at: location.directory, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw refuse("its folder cannot be created (\(error.localizedDescription))")
    }
    let existing: ConfigurationFile.FileIdentity?
    do {
      existing = try ConfigurationFile.existingFile(at: file.path)
    } catch {
      throw refuse(error.reason)
    }
    var members: [(String, OrderedJSON)] = []
    if existing != nil {
      let document: JSONDocument
      do {
        document = try JSONParser.parse(try ConfigurationFile.read(file))
      } catch let error as ConfigurationFileError {
        throw refuse(error.description)
      } catch {
        throw refuse("\(error); fix the file (or remove it), then try again")
      }
      guard case .object(let read) = document.ordered else {
        throw refuse("it is not a JSON object; fix the file (or remove it), then try again")
      }
      members = read
    }
    var routes: [(String, OrderedJSON)] = []
    let index = members.firstIndex { $0.0 == "git" }
    if let index {
      guard case .object(let read) = members[index].1 else {
        throw refuse("its \"git\" is not an object of URLs to accounts; fix it, then try again")
      }
      routes = read
    }
    let entry: OrderedJSON =
      username.map { .object([("account", .string(account)), ("username", .string($0))]) }
      ?? .string(account)
    if let same = routes.firstIndex(where: { (try? GitURLPrefix.parse($0.0).get()) == prefix }) {
      routes[same] = (self.url, entry)
    } else {
      routes.append((self.url, entry))
    }
    if let index {
      members[index].1 = .object(routes)
    } else {
      members.append(("git", .object(routes)))
    }
    do {
      try ConfigurationFile.replace(
        file.path, expecting: existing, with: OrderedJSON.object(members).prettyText + "\n")
    } catch {
      throw refuse(error.reason)
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

  /// An error for `path` (as shown) and `reason`.
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  public var description: String { "\(path): \(reason)" }
}
