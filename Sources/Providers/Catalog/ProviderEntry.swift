import AuthCore
import Foundation

/// One provider as the catalog knows it: where it came from, whether it can be used, and why not.
public struct ProviderEntry: Sendable {
  /// The id used in `PROVIDER/LABEL`.
  public let id: ProviderID
  /// The human name.
  public let name: String
  /// Where the entry comes from: a built-in preset, a user file, or a user file over a preset.
  public let origin: Origin
  /// The flows the provider offers.
  public let flows: [SignInFlow]
  /// The merged file (preset plus the user's fields).
  public let file: ProviderFile
  /// The ready configuration, or nil when a problem makes the provider unusable.
  public let configuration: ProviderConfiguration?
  /// What stops (or would stop) this provider from working, each with its fix.
  public let problems: [ProviderProblem]
  /// The file a user writes to change this provider, as shown (`~/.config/authtui/providers/ID.json`):
  /// the user file it came from, or the one that would override its preset.
  public let editFile: String
  /// The issuer of id_tokens when it differs per token (`id_token_issuer_fields`), which
  /// discovery also accepts as the published issuer; nil for one issuer.
  public var issuerTemplate: IssuerTemplate? = nil

  /// True when a `client_id` is set.
  public var hasClientID: Bool { file.clientID != nil }

  /// True when the provider names an issuer but not every endpoint its flows need, so OpenID
  /// Connect discovery fills them in before a sign-in.
  public var needsDiscovery: Bool {
    guard file.issuer != nil, file.usesDiscovery != false else { return false }
    return flows.contains { !$0.hasEndpoints(in: file) }
  }

  /// Where a provider's definition comes from.
  public enum Origin: Sendable, Equatable {
    /// A preset compiled into authtui, with no user file.
    case preset
    /// A user file with no preset below it.
    case file(String)
    /// A user file over a preset.
    case fileOverPreset(file: String, preset: String)

    /// For `authtui providers`: `preset`, the file, or `file (preset simkl)`.
    public var label: String {
      switch self {
      case .preset: return "built-in"
      case .file(let path): return path
      case .fileOverPreset(let path, let preset): return "\(path) (over preset \(preset))"
      }
    }
  }
}

/// Where a provider stands, as every list of providers says it (`authtui providers`, the UI).
public enum ProviderState: String, Sendable, Equatable {
  /// It can be signed in to.
  case ready
  /// It lacks only a client id (a file or the UI's setup form gives one).
  case noClientID = "no_client_id"
  /// It lacks only the installed application's client secret (Google's).
  case noClientSecret = "no_client_secret"
  /// Something in its file must be fixed first.
  case needsFix = "needs_fix"

  /// The words lists use (`no client id`).
  public var words: String {
    switch self {
    case .ready: return "ready"
    case .noClientID: return "no client id"
    case .noClientSecret: return "no client secret"
    case .needsFix: return "needs a fix"
    }
  }
}

extension ProviderEntry {
  /// Where the provider stands.
  public var state: ProviderState {
    if configuration != nil { return .ready }
    // Only a missing client id or secret: what the setup asks for.
    let missing = problems.allSatisfy {
      $0.field == "client_id" || ($0.field == "client_secret" && file.clientSecret == nil)
    }
    guard missing else { return .needsFix }
    return hasClientID ? .noClientSecret : .noClientID
  }
}

extension SignInFlow {
  /// True when `file` has the endpoints this flow needs without discovery.
  func hasEndpoints(in file: ProviderFile) -> Bool {
    requiredEndpoints.allSatisfy { file.endpoints[$0] != nil }
  }

  /// The endpoint names this flow needs, for error messages.
  var requiredEndpointNames: String {
    requiredEndpoints.map(\.rawValue).joined(separator: " and ")
  }
}
