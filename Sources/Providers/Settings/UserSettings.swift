import AuthCore
import Foundation
import JSON
import Spelling

/// The user's `config.json`: preferences that are not about one provider.
///
/// ```json
/// { "theme": "light", "login_timeout": 300, "clipboard_clear_after": 45,
///   "keys": { "refresh": ["r", "ctrl-r"] },
///   "agent": { "unlock_once": true, "idle_timeout": 3600,
///              "confirm": { "github/alice": "always" } },
///   "git": { "https://git.example.com": "work/alice" } }
/// ```
/// Key names and action names are checked by the UI's key map, which knows them; here they are
/// only read, with the line of each so its errors can point there too.
public struct UserSettings: Sendable, Equatable {
  /// The theme to use when `--theme` is not given.
  public var theme: String?
  /// Seconds a browser sign-in waits, for providers that set no `login_timeout`.
  public var loginTimeout: TimeInterval?
  /// Seconds after which a copied token is cleared from the clipboard.
  public var clipboardClearAfter: TimeInterval?
  /// Key overrides: action name to key names.
  public var keys: [String: [String]]
  /// Where each entry of `keys` stands in the file, for the key map's errors.
  public var keyPositions: [String: SourcePosition]
  /// `agent.unlock_once`: the first command that unlocks the vault leaves an agent running
  /// (off unless set: any process of the user then gets tokens without the passphrase).
  public var agentUnlockOnce = false
  /// `agent.idle_timeout`: the seconds without a request after which that agent stops (0:
  /// never); nil for the default. Written as a number of seconds or as `--idle-timeout`'s
  /// DURATION (`"90m"`).
  public var agentIdleTimeout: Int?
  /// `agent.confirm`: per account (`PROVIDER/LABEL`), which of its token requests the agent
  /// holds until a person allows them: `forwarded` or `always` (`ConfirmationMode`), on top of
  /// `agent start --confirm` (the stricter one applies).
  public var agentConfirm: [String: String] = [:]
  /// Whether `agentConfirm` may lack what the user wrote: config.json could not be read or is
  /// not JSON, or its `agent` object has a problem (a misspelt field, a word other than
  /// `forwarded` or `always`, an entry that names no account). An agent then does not hand out
  /// tokens by rules it cannot be sure of: it refuses to start, or keeps the rules it had.
  public var agentConfirmUncertain = false
  /// `git`: which account answers `authtui git-credential` for which URL prefix.
  public var gitRoutes: [GitCredentialRoute] = []

  /// The idle timeout of an agent left running by `unlock_once` when none is set: an hour.
  public static let defaultAgentIdleTimeout = 3600

  public init(
    theme: String? = nil, loginTimeout: TimeInterval? = nil,
    clipboardClearAfter: TimeInterval? = nil,
    keys: [String: [String]] = [:], keyPositions: [String: SourcePosition] = [:]
  ) {
    self.theme = theme
    self.loginTimeout = loginTimeout
    self.clipboardClearAfter = clipboardClearAfter
    self.keys = keys
    self.keyPositions = keyPositions
  }

  /// The defaults, for a config.json that could not be read at all.
  static var unread: UserSettings {
    var settings = UserSettings()
    settings.agentConfirmUncertain = true
    return settings
  }

  static let fields = ["theme", "login_timeout", "clipboard_clear_after", "keys", "agent", "git"]
  static let agentFields = ["unlock_once", "idle_timeout", "confirm"]
  /// The words `agent.confirm` takes for an account.
  public static let confirmationWords = ["forwarded", "always"]

  /// Reads `config.json` from `location`; a missing file is the defaults, and one that cannot
  /// be read (a directory, a FIFO, too large…) is the defaults and a problem. Problems are
  /// returned beside the settings that could be read, so one bad field does not cost the others.
  public static func load(from location: ConfigurationLocation) -> (UserSettings, [ProviderProblem])
  {
    if let problem = location.folderProblem { return (.unread, [problem]) }
    let url = location.settingsFile
    let shown = ConfigurationLocation.display(url)
    let text: String
    do {
      text = try ConfigurationFile.read(url)
    } catch .missing {
      return (UserSettings(), [])
    } catch {
      let problem = ProviderProblem(
        file: shown, position: nil, field: nil, message: error.description)
      return (.unread, [problem])
    }
    return parse(text, file: shown)
  }

  /// Reads settings from the text of a `config.json`.
  public static func parse(_ text: String, file: String) -> (UserSettings, [ProviderProblem]) {
    let document: JSONDocument
    do {
      document = try JSONParser.parse(text)
    } catch {
      let problem = ProviderProblem(
        file: file, position: error.position, field: nil,
        message: "not valid JSON: \(error.message)")
      return (.unread, [problem])
    }
    var reader = FieldReader(document: document, file: file)
    guard case .object(let members) = document.root else {
      reader.report(nil, "config.json holds one JSON object ({ \"theme\": … })")
      return (.unread, reader.problems)
    }
    reader.reportUnknownFields(
      of: members, known: fields,
      fix: "the fields are listed in docs/configuration.md under \"config.json\"")
    var settings = UserSettings()
    settings.theme = reader.string("theme")
    settings.loginTimeout = reader.integer("login_timeout", in: 10...3600).map { TimeInterval($0) }
    settings.clipboardClearAfter = reader.integer("clipboard_clear_after", in: 0...86400).map {
      TimeInterval($0)
    }
    if let keys = members["keys"] {
      if case .object(let bindings) = keys {
        for action in bindings.keys.sorted() {
          if let names = reader.stringList("keys.\(action)", allowingSingleString: true) {
            settings.keys[action] = names
            settings.keyPositions[action] = document.position(of: "keys.\(action)")
          }
        }
      } else {
        reader.typeMismatch("keys", expected: "an object of action names to key lists", found: keys)
      }
    }
    if let agent = members["agent"] {
      let problemsBefore = reader.problems.count
      if case .object(let fields) = agent {
        reader.reportUnknownFields(
          of: fields, known: agentFields, prefix: "agent.",
          fix: "the fields are listed in docs/configuration.md under \"config.json\"")
        settings.agentUnlockOnce = reader.bool("agent.unlock_once") ?? false
        settings.agentIdleTimeout = reader.duration(
          "agent.idle_timeout", in: 0...DurationSpelling.year)
        for (account, word) in reader.stringMap("agent.confirm") ?? [:] {
          guard account.contains("/") else {
            reader.report(
              "agent.confirm.\(account)", "is not an account; name it as PROVIDER/LABEL")
            continue
          }
          guard confirmationWords.contains(word) else {
            reader.report(
              "agent.confirm.\(account)", "must be \"forwarded\" or \"always\", not \"\(word)\"")
            continue
          }
          settings.agentConfirm[account] = word
        }
      } else {
        reader.typeMismatch(
          "agent", expected: "an object such as {\"unlock_once\": true}", found: agent)
      }
      settings.agentConfirmUncertain = reader.problems.count > problemsBefore
    }
    if let git = members["git"] {
      settings.gitRoutes = gitRoutes(git, reader: &reader)
    }
    return (settings, reader.problems)
  }
}
