import AuthCore
import Foundation
import JSON
import Loopback

/// The test hooks under `/_sandbox/`. They are never subject to faults and never counted.
///
/// | hook | body (JSON) | answer |
/// | --- | --- | --- |
/// | `GET /_sandbox/stats` | | every counter globally, then `"profiles":{"simkl":{…},…}` |
/// | `POST /_sandbox/fault` | `{"path":"/oidc/token","kind":"status500\|delay\|hold\|garbage\|drop\|drop_after\|answer","count":1,"delay_ms":1500}` (an `answer` with `"status":400,"body":"{…}"`) | `{"faults":[…]}` (the faults waiting) |
/// | `GET /_sandbox/fault`, `DELETE /_sandbox/fault` | | the faults waiting (`DELETE` clears them first) |
/// | `POST /_sandbox/release` | | `{"released":N}`: every request a `hold` fault keeps is answered now |
/// | `POST /_sandbox/clock` | `{"offset_seconds":900}` sets, `{"advance_seconds":60}` adds | `{"offset_seconds":…,"now":UNIX}` |
/// | `POST /_sandbox/settings` | `{"profile":"oidc","access_token_lifetime":2,"refresh_token_lifetime":…,"authorization_code_lifetime":…,"device_code_lifetime":…,"device_interval":…,"redirect_uris":[…] or null,"id_token_signing":"RS256\|ES256\|alternate" or null,"refresh_needs_client_secret":false,"registration":"open\|closed\|vendor_field","openid_discovery":true,"strict_offline_access":false,"error_redirect_omits_iss":false,"subject_only_claims":false,"par":"off\|offered\|required","par_lifetime":60,"dpop":"off\|offered\|required","dpop_signing_algs":["ES256"],"dpop_nonce":false,"refresh_id_token":"none\\|same\\|other_user\\|bad_signature"}` (any subset; `par…` and `dpop…` for `oidc` and `dynamic`) | the profile's settings |
/// | `GET /_sandbox/settings` | | every profile's settings |
/// | `POST /_sandbox/invalidate` | `{"profile":"oidc"}` (all profiles without it) | `{"invalidated":N}` |
/// | `POST /_sandbox/rotate-keys` | `{"profile":"oidc"}` (`oidc` and `muhajir` without it) | `{"kids":{"oidc":[…]}}` |
/// | `POST /_sandbox/reset` | | `{"reset":true}` |
///
/// A malformed hook request answers `400 {"error":"…"}` saying what to send.
extension SandboxEngine {
  typealias Hooks = SandboxPaths.Hooks

  func hook(_ request: HTTPRequest) -> HTTPResponse {
    let body: [String: JSONValue]
    if request.body.isEmpty {
      body = [:]
    } else if let object = JSONValue.object(from: request.body) {
      body = object
    } else {
      return Self.hookError("The body must be a JSON object.")
    }
    switch (request.method, request.path) {
    case ("GET", Hooks.stats):
      return Answers.json(stats.json)
    case ("POST", Hooks.fault):
      return addFault(body)
    case ("GET", Hooks.fault):
      return faultList()
    case ("DELETE", Hooks.fault):
      faults.clear()
      return faultList()
    case ("POST", Hooks.release):
      return Answers.json(["released": .int(releaseHolds())])
    case ("POST", Hooks.clock):
      return moveClock(body)
    case ("GET", Hooks.clock):
      return clockState()
    case ("POST", Hooks.settings):
      return changeSettings(body)
    case ("GET", Hooks.settings):
      return Answers.json(
        .object(SandboxProfile.allCases.map { ($0.rawValue, settings(for: $0).json) }))
    case ("POST", Hooks.invalidate):
      guard case .success(let profile) = Self.optionalProfile(body) else {
        return Self.hookError(Self.profileHelp)
      }
      return Answers.json(["invalidated": .int(invalidateRefreshTokens(of: profile))])
    case ("POST", Hooks.rotateKeys):
      guard case .success(let profile) = Self.optionalProfile(body) else {
        return Self.hookError(Self.profileHelp)
      }
      do {
        let kids = try rotateKeys(of: profile)
        let members = SandboxProfile.allCases.compactMap { profile in
          kids[profile].map { (profile.rawValue, OrderedJSON.array($0.map(OrderedJSON.string))) }
        }
        return Answers.json(["kids": .object(members)])
      } catch {
        return Self.hookError("The sandbox could not make new keys: \(error)", status: 500)
      }
    case ("POST", Hooks.reset):
      reset()
      return Answers.json(["reset": true])
    default:
      let known = [
        Hooks.stats, Hooks.fault, Hooks.clock, Hooks.settings, Hooks.invalidate,
        Hooks.rotateKeys, Hooks.reset,
      ]
      if known.contains(request.path) {
        return Self.hookError("Wrong method for \(request.path); see docs/testing.md.", status: 405)
      }
      return Self.hookError(
        "No hook at \(request.path); hooks: \(known.joined(separator: " ")).", status: 404)
    }
  }

  // MARK: Faults

  private func addFault(_ body: [String: JSONValue]) -> HTTPResponse {
    let help =
      "Send {\"path\":\"/oidc/token\",\"kind\":\"status500|delay|hold|garbage|drop|drop_after|"
      + "answer\",\"count\":1,\"delay_ms\":1000} (an answer with \"status\":400,"
      + "\"body\":\"{…}\")."
    guard let path = body["path"]?.stringValue, path.hasPrefix("/"), !path.hasPrefix("/_sandbox"),
      let kindName = body["kind"]?.stringValue
    else { return Self.hookError(help) }
    let count = Self.integer(body["count"]) ?? 1
    guard count >= 1 else { return Self.hookError("count must be 1 or more. " + help) }
    let kind: SandboxFault.Kind
    switch kindName {
    case "status500": kind = .status500
    case "garbage": kind = .garbage
    case "drop": kind = .drop
    case "drop_after": kind = .dropAfterProcessing
    case "hold": kind = .hold
    case "delay":
      guard let milliseconds = Self.integer(body["delay_ms"]), milliseconds >= 0 else {
        return Self.hookError("A delay needs delay_ms (0 or more). " + help)
      }
      kind = .delay(milliseconds: milliseconds)
    case "answer":
      guard let status = Self.integer(body["status"]), (200...599).contains(status),
        let text = body["body"]?.stringValue
      else {
        return Self.hookError("An answer needs status (200 to 599) and body (a string). " + help)
      }
      kind = .answer(status: status, body: text)
    default:
      return Self.hookError("Unknown kind \"\(kindName)\". " + help)
    }
    faults.add(SandboxFault(pathPrefix: path, kind: kind, count: count))
    return faultList()
  }

  private func faultList() -> HTTPResponse {
    Answers.json(["faults": .array(faults.pending.map(\.json))])
  }

  // MARK: Clock

  private func moveClock(_ body: [String: JSONValue]) -> HTTPResponse {
    if let offset = body["offset_seconds"]?.strictNumberValue {
      clockOffset = offset
    } else if let step = body["advance_seconds"]?.strictNumberValue {
      clockOffset += step
    } else {
      return Self.hookError("Send {\"offset_seconds\":N} or {\"advance_seconds\":N}.")
    }
    return clockState()
  }

  private func clockState() -> HTTPResponse {
    Answers.json([
      "offset_seconds": .int(Int(clockOffset.rounded())),
      "now": .int(Int(now.timeIntervalSince1970.rounded(.down))),
    ])
  }

  // MARK: Settings

  private func changeSettings(_ body: [String: JSONValue]) -> HTTPResponse {
    guard let name = body["profile"]?.stringValue, let profile = SandboxProfile(rawValue: name)
    else {
      return Self.hookError(Self.profileHelp)
    }
    var updated = settings(for: profile)
    let integers: [(String, WritableKeyPath<ProfileSettings, Int>)] = [
      ("access_token_lifetime", \.accessTokenLifetime),
      ("refresh_token_lifetime", \.refreshTokenLifetime),
      ("authorization_code_lifetime", \.authorizationCodeLifetime),
      ("device_code_lifetime", \.deviceCodeLifetime),
      ("device_interval", \.deviceInterval),
      ("par_lifetime", \.pushedRequestLifetime),
    ]
    let flags: [(String, WritableKeyPath<ProfileSettings, Bool>)] = [
      ("refresh_needs_client_secret", \.refreshNeedsClientSecret),
      ("openid_discovery", \.publishesOpenIDDiscovery),
      ("strict_offline_access", \.strictOfflineAccess),
      ("error_redirect_omits_iss", \.errorRedirectOmitsIssuer),
      ("subject_only_claims", \.subjectOnlyClaims),
      ("dpop_nonce", \.dpopNonceRequired),
    ]
    let extensions: [(String, WritableKeyPath<ProfileSettings, ProfileSettings.Extension>)] = [
      ("par", \.pushedAuthorization), ("dpop", \.dpop),
    ]
    let known = Set(
      integers.map(\.0) + flags.map(\.0) + extensions.map(\.0) + [
        "profile", "redirect_uris", "id_token_signing", "post_logout_redirect_uris",
        "registration", "dpop_signing_algs", "refresh_id_token",
      ])
    if let unknown = body.keys.sorted().first(where: { !known.contains($0) }) {
      return Self.hookError(
        "Unknown setting \"\(unknown)\"; settings: \(known.subtracting(["profile"]).sorted().joined(separator: ", "))."
      )
    }
    for (key, path) in integers where body[key] != nil {
      guard let value = Self.integer(body[key]), value >= 0 else {
        return Self.hookError("\(key) takes a whole number of seconds, 0 or more.")
      }
      updated[keyPath: path] = value
    }
    let lists: [(String, WritableKeyPath<ProfileSettings, [String]?>, String)] = [
      ("redirect_uris", \.registeredRedirectURIs, "any loopback port"),
      ("post_logout_redirect_uris", \.postLogoutRedirectURIs, "the redirect URIs"),
    ]
    for (key, path, nullMeaning) in lists {
      guard let uris = body[key] else { continue }
      if uris == .null {
        updated[keyPath: path] = nil
      } else if let list = uris.stringArrayValue {
        updated[keyPath: path] = list
      } else {
        return Self.hookError("\(key) takes a list of strings, or null for \(nullMeaning).")
      }
    }
    if let signing = body["id_token_signing"] {
      if signing == .null {
        updated.idTokenSigning = nil
      } else if let text = signing.stringValue,
        let choice = ProfileSettings.IDTokenSigning(rawValue: text)
      {
        updated.idTokenSigning = choice
      } else {
        return Self.hookError("id_token_signing takes \"RS256\", \"ES256\", \"alternate\" or null.")
      }
    }
    for (key, path) in flags {
      guard let flag = body[key] else { continue }
      guard case .bool(let value) = flag else {
        return Self.hookError("\(key) takes true or false.")
      }
      updated[keyPath: path] = value
    }
    let extensionSettings = ["par", "par_lifetime", "dpop", "dpop_signing_algs", "dpop_nonce"]
    if let name = extensionSettings.first(where: { body[$0] != nil }),
      !Self.profilesWithExtensions.contains(profile)
    {
      let names = Self.profilesWithExtensions.map(\.rawValue).joined(separator: " and ")
      return Self.hookError("\(name) is a setting of the \(names) profiles.")
    }
    for (key, path) in extensions {
      guard let value = body[key] else { continue }
      guard let text = value.stringValue, let choice = ProfileSettings.Extension(rawValue: text)
      else {
        let choices = ProfileSettings.Extension.allCases.map { "\"\($0.rawValue)\"" }
        return Self.hookError("\(key) takes \(choices.joined(separator: ", ")).")
      }
      updated[keyPath: path] = choice
    }
    if let algorithms = body["dpop_signing_algs"] {
      guard let list = algorithms.stringArrayValue else {
        return Self.hookError("dpop_signing_algs takes a list of JWS algorithm names.")
      }
      updated.dpopSigningAlgorithms = list
    }
    if let refusal = Self.choose("registration", in: body, into: &updated, at: \.registration)
      ?? Self.choose("refresh_id_token", in: body, into: &updated, at: \.refreshIDToken)
    {
      return refusal
    }
    settings[profile] = updated
    return Answers.json(updated.json)
  }

  // MARK: Helpers

  /// Sets the setting at `path` to the choice `body[key]` names, if it names one; the hook's
  /// refusal, listing the choices, when it names none of them.
  private static func choose<Choice>(
    _ key: String, in body: [String: JSONValue], into settings: inout ProfileSettings,
    at path: WritableKeyPath<ProfileSettings, Choice>
  ) -> HTTPResponse? where Choice: RawRepresentable<String> & CaseIterable {
    guard let value = body[key] else { return nil }
    guard let text = value.stringValue, let choice = Choice(rawValue: text) else {
      let choices = Choice.allCases.map { "\"\($0.rawValue)\"" }
      return hookError("\(key) takes \(choices.joined(separator: ", ")).")
    }
    settings[keyPath: path] = choice
    return nil
  }

  /// The profiles with a PAR endpoint and DPoP (`par`, `dpop` and their settings).
  static let profilesWithExtensions: [SandboxProfile] = [.oidc, .dynamic]

  static let profileHelp =
    "Name a profile: {\"profile\":\""
    + SandboxProfile.allCases.map(\.rawValue).joined(separator: "|") + "\"}."

  private enum ProfileChoice {
    case success(SandboxProfile?)
    case failure
  }

  private static func optionalProfile(_ body: [String: JSONValue]) -> ProfileChoice {
    guard let value = body["profile"] else { return .success(nil) }
    guard let name = value.stringValue, let profile = SandboxProfile(rawValue: name) else {
      return .failure
    }
    return .success(profile)
  }

  /// A JSON number that is whole (`true` and `false` are not numbers).
  private static func integer(_ value: JSONValue?) -> Int? {
    guard let double = value?.strictNumberValue, double == double.rounded(), abs(double) < 1e15
    else {
      return nil
    }
    return Int(double)
  }

  static func hookError(_ message: String, status: Int = 400) -> HTTPResponse {
    Answers.json(["error": .string(message)], status: status)
  }
}
