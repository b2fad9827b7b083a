import AuthCore
import Foundation

/// What a provider without a client id (or, for Google, without its client secret) asks of its
/// user before a first sign-in, for the UI's setup form: where to register an application, what
/// to register, the redirect port the registration fixes, and whether the provider wants the
/// application's client secret. `ProviderFile.saveSetup` writes the answer into
/// `providers/ID.json`.
public struct ProviderSetup: Sendable, Equatable {
  /// Where a developer registers an application (`registration_url`), when the provider says.
  public var registrationURL: String?
  /// What to register there (`registration_note`), for example the redirect URI.
  public var registrationNote: String?
  /// The redirect port the provider's registration fixes (`redirect_port`); nil when any
  /// port will do, and the form then asks for none.
  public var redirectPort: UInt16?
  /// The file the setup writes, as the user would type it
  /// (`~/.config/authtui/providers/simkl.json`).
  public var file: String
  /// What to register: application type, redirect URI, scopes.
  public var guide: RegistrationGuide
  /// True when the preset wants the installed application's client secret at the token
  /// endpoint (`client_secret_required`, Google's) and the file has none yet: the form asks
  /// for it too.
  public var asksClientSecret: Bool
  /// The client id the file already has, when only the secret is missing (the form starts
  /// with it).
  public var clientID: String?

  /// Describes a setup.
  public init(
    registrationURL: String? = nil, registrationNote: String? = nil, redirectPort: UInt16? = nil,
    file: String, guide: RegistrationGuide = RegistrationGuide(), asksClientSecret: Bool = false,
    clientID: String? = nil
  ) {
    self.asksClientSecret = asksClientSecret
    self.clientID = clientID
    self.registrationURL = registrationURL
    self.registrationNote = registrationNote
    self.redirectPort = redirectPort
    self.file = file
    self.guide = guide
  }

  /// What the file lacks, as the provider choice and the form's title say it.
  public var missing: String { clientID == nil ? "no client id yet" : "no client secret yet" }

  /// The setup of a merged provider file that has no client id, or no client secret where the
  /// preset requires one; nil when it has what it needs.
  init?(_ file: ProviderFile, editFile: String, guide: RegistrationGuide) {
    let asksClientSecret = file.clientSecretRequired == true && file.clientSecret == nil
    guard file.clientID == nil || asksClientSecret else { return nil }
    self.init(
      registrationURL: file.registrationURL, registrationNote: file.registrationNote,
      redirectPort: file.redirectPort, file: editFile, guide: guide,
      asksClientSecret: asksClientSecret, clientID: file.clientID)
  }

  /// The client id as typed, checked: white space around it is dropped; empty, or holding
  /// white space or control characters inside (a paste that caught more than the id), it is
  /// refused with what to do.
  public static func checkedClientID(_ text: String) throws(ProviderSetupError) -> String {
    try checked(
      text, empty: .emptyClientID, tooLong: ProviderSetupError.clientIDTooLong,
      malformed: .malformedClientID)
  }

  /// The client secret as typed, checked as a client id is: white space around it is dropped,
  /// and an empty one, or one holding white space or control characters, is refused.
  public static func checkedClientSecret(_ text: String) throws(ProviderSetupError)
    -> ClientSecret
  {
    ClientSecret(
      try checked(
        text, empty: .emptyClientSecret, tooLong: ProviderSetupError.clientSecretTooLong,
        malformed: .malformedClientSecret))
  }

  /// The most characters a client id or secret may have.
  public static let longest = 512

  /// `text` without the white space around it; `empty` when nothing is left, `tooLong` (with
  /// its length) when it is over `longest` characters, `malformed` when it holds white space or
  /// a control character.
  private static func checked(
    _ text: String, empty: ProviderSetupError, tooLong: (Int) -> ProviderSetupError,
    malformed: ProviderSetupError
  ) throws(ProviderSetupError) -> String {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { throw empty }
    guard
      !trimmed.unicodeScalars.contains(where: {
        $0.properties.isWhitespace || $0.value < 0x20 || (0x7F..<0xA0).contains($0.value)
      })
    else { throw malformed }
    guard trimmed.count <= longest else { throw tooLong(trimmed.count) }
    return trimmed
  }

  /// The redirect port as typed: a whole number from 1024 to 65535 (below 1024 needs root).
  public static func checkedPort(_ text: String) throws(ProviderSetupError) -> UInt16 {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard let port = Int(trimmed), (1024...65535).contains(port) else {
      throw .badRedirectPort(trimmed)
    }
    return UInt16(port)
  }
}

extension ProviderEntry {
  /// What a setup of this provider asks for, when it has no client id yet.
  public var setup: ProviderSetup? {
    ProviderSetup(file, editFile: editFile, guide: registration)
  }
}

/// Why a provider's setup was not saved; `description` says what to do.
public enum ProviderSetupError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Nothing was typed in the client id field.
  case emptyClientID
  /// The client id holds white space or control characters.
  case malformedClientID
  /// The client id has more than `ProviderSetup.longest` characters (how many).
  case clientIDTooLong(characters: Int)
  /// Nothing was typed in the client secret field.
  case emptyClientSecret
  /// The client secret holds white space or control characters.
  case malformedClientSecret
  /// The client secret has more than `ProviderSetup.longest` characters (how many).
  case clientSecretTooLong(characters: Int)
  /// The redirect port is no number from 1024 to 65535 (as typed).
  case badRedirectPort(String)
  /// The provider file cannot be read, changed or written.
  case file(path: String, reason: String)

  public var description: String {
    switch self {
    case .emptyClientID:
      return "the client id is empty: give the one the provider gave your application"
    case .malformedClientID:
      return "a client id has no spaces or control characters; paste just the id"
    case .clientIDTooLong(let characters):
      return "a client id has at most \(ProviderSetup.longest) characters, this one "
        + "\(characters); paste just the id"
    case .emptyClientSecret:
      return "the client secret is empty: give the one shown with the client id in the "
        + "application's credentials"
    case .malformedClientSecret:
      return "a client secret has no spaces or control characters; paste just the secret"
    case .clientSecretTooLong(let characters):
      return "a client secret has at most \(ProviderSetup.longest) characters, this one "
        + "\(characters); paste just the secret"
    case .badRedirectPort(let text):
      let shown = text.isEmpty ? "an empty port" : "\"\(text)\""
      return "\(shown) is not a port from 1024 to 65535; type the port of the redirect URI "
        + "you registered"
    case .file(let path, let reason):
      return "\(path): \(reason)"
    }
  }
}
