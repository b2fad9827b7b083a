import AuthCore
import Foundation
import JSON
import Loopback

/// Answers several profiles give the same way.
enum Answers {
  /// A JSON answer.
  static func json(_ value: OrderedJSON, status: Int = 200) -> HTTPResponse {
    .json(value.text, status: status)
  }

  /// An RFC 6749 §5.2 error: `{"error","error_description"}`.
  static func oauthError(_ error: String, _ description: String, status: Int = 400)
    -> HTTPResponse
  {
    json(["error": .string(error), "error_description": .string(description)], status: status)
  }

  /// A Microsoft identity platform error: RFC 6749's two members, plus `error_codes` (the
  /// AADSTS number, when known), `timestamp`, `trace_id` and `correlation_id`, and the same
  /// three facts at the end of `error_description`.
  static func microsoftError(
    _ error: String, _ description: String, code: Int?, now: Date, status: Int = 400
  ) -> HTTPResponse {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss'Z'"
    let stamp = formatter.string(from: now)
    let trace = UUID().uuidString.lowercased()
    let correlation = UUID().uuidString.lowercased()
    let text =
      description
      + "\r\nTrace ID: \(trace)\r\nCorrelation ID: \(correlation)\r\nTimestamp: \(stamp)"
    var members: [(String, OrderedJSON)] = [
      ("error", .string(error)), ("error_description", .string(text)),
    ]
    if let code { members.append(("error_codes", [.int(code)])) }
    members += [
      ("timestamp", .string(stamp)), ("trace_id", .string(trace)),
      ("correlation_id", .string(correlation)),
    ]
    return json(.object(members), status: status)
  }

  /// A bearer-token refusal (RFC 6750 §3): 401 `invalid_token`, or 401 without an error code
  /// when no token was sent at all, or 403 `insufficient_scope` naming the scope needed.
  static func bearerRefusal(
    _ refusal: BearerRefusal, realm: String, status401Body: OrderedJSON? = nil
  ) -> HTTPResponse {
    var response: HTTPResponse
    switch refusal {
    case .missing:
      response = json(
        status401Body
          ?? [
            "error": "invalid_token",
            "error_description": "Send the access token in an Authorization: Bearer header.",
          ], status: 401)
      response.headers.append(("WWW-Authenticate", "Bearer realm=\"\(realm)\""))
    case .invalid:
      let description = "The access token is unknown, expired or revoked; sign in again."
      response = json(
        status401Body ?? ["error": "invalid_token", "error_description": .string(description)],
        status: 401)
      response.headers.append(
        (
          "WWW-Authenticate",
          "Bearer realm=\"\(realm)\", error=\"invalid_token\", "
            + "error_description=\"\(description)\""
        ))
    case .insufficientScope(let scope):
      let description = "The access token is valid but lacks the `\(scope)` scope."
      response = json(
        [
          "error": "insufficient_scope", "error_description": .string(description),
          "scope": .string(scope),
        ], status: 403)
      response.headers.append(
        (
          "WWW-Authenticate",
          "Bearer realm=\"\(realm)\", error=\"insufficient_scope\", scope=\"\(scope)\""
        ))
    }
    return response
  }

  /// Why a bearer token was refused.
  enum BearerRefusal: Equatable {
    case missing
    case invalid
    case insufficientScope(String)
  }

  /// The token in `Authorization: Bearer TOKEN` (scheme compared case-insensitively, RFC 9110
  /// §11.1); with `allowBare`, a header holding only the token (Hivesigner's convention).
  static func bearerToken(of request: HTTPRequest, allowBare: Bool = false) -> String? {
    guard let header = request.header("Authorization")?.trimmingSpaces(), !header.isEmpty else {
      return nil
    }
    let parts = header.split(separator: " ", maxSplits: 1)
    if parts.count == 2, parts[0].lowercased() == "bearer" {
      return String(parts[1]).trimmingSpaces()
    }
    return allowBare && parts.count == 1 ? header : nil
  }

  /// The token in `Authorization: DPoP TOKEN` (RFC 9449 §7.1; the scheme compared
  /// case-insensitively).
  static func dpopToken(of request: HTTPRequest) -> String? {
    guard let header = request.header("Authorization")?.trimmingSpaces() else { return nil }
    let parts = header.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "dpop" else { return nil }
    return String(parts[1]).trimmingSpaces()
  }

  /// 404 with a short JSON body (API hosts).
  static func notFound(_ path: String) -> HTTPResponse {
    json(
      ["error": "not_found", "error_description": .string("Nothing is served at \(path).")],
      status: 404)
  }

  /// `answer()` for a request whose method is one of `allowed`; 405 naming them for any other.
  static func allowing(
    _ allowed: [String], _ request: HTTPRequest, _ answer: () -> HTTPResponse
  ) -> HTTPResponse {
    allowed.contains(request.method) ? answer() : methodNotAllowed(allowed)
  }

  /// 405 with the methods the path takes.
  static func methodNotAllowed(_ allowed: [String]) -> HTTPResponse {
    var response = json(
      [
        "error": "method_not_allowed",
        "error_description": .string(
          "Use \(allowed.joined(separator: " or "))."),
      ], status: 405)
    response.headers.append(("Allow", allowed.joined(separator: ", ")))
    return response
  }
}
