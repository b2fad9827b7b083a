import AuthCore
import Foundation
import JSON
import Loopback

/// The named parameters of a request, from its query string or its body, whichever encoding
/// the client chose: `application/x-www-form-urlencoded` or a JSON object.
///
/// Keeps what each provider's rules need to look at: the first value of each name, every name
/// that was present at all (Hivesigner counts a `client_secret` of `null` or `0` as sent), and
/// the names that were repeated (RFC 6749 §3.1 forbids that).
struct RequestFields: Sendable {
  /// How the body was encoded.
  enum Encoding: Sendable, Equatable {
    case form
    case json
    /// No body at all.
    case empty
    /// A body that claims to be JSON (or looks like it) but is not a JSON object.
    case malformedJSON
  }

  let encoding: Encoding
  private let values: [String: String]
  /// Every name present, whatever its JSON type.
  let names: Set<String>
  /// Names given more than once.
  let repeated: Set<String>

  private init(
    encoding: Encoding, values: [String: String], names: Set<String>, repeated: Set<String>
  ) {
    self.encoding = encoding
    self.values = values
    self.names = names
    self.repeated = repeated
  }

  /// The first value called `name`; JSON strings only (a number is present but has no value).
  subscript(name: String) -> String? { values[name] }

  /// The value of `name` when present and not empty.
  func nonEmpty(_ name: String) -> String? {
    values[name].flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The query parameters of `request`.
  static func query(of request: HTTPRequest) -> RequestFields {
    fromPairs(request.queryItems, encoding: .form)
  }

  /// The body of `request`, read as JSON when it says so (or starts with `{`), else as a form.
  static func body(of request: HTTPRequest) -> RequestFields {
    let contentType = request.header("Content-Type")?.lowercased() ?? ""
    let text = String(decoding: request.body, as: UTF8.self)
    let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
    if trimmed.isEmpty {
      return RequestFields(encoding: .empty, values: [:], names: [], repeated: [])
    }
    if contentType.hasPrefix("application/json") || trimmed.hasPrefix("{") {
      return json(request.body)
    }
    return fromPairs(request.formParameters, encoding: .form)
  }

  /// The body of `request` merged over its query: for endpoints that take either.
  static func queryAndBody(of request: HTTPRequest) -> RequestFields {
    let body = body(of: request)
    let query = query(of: request)
    var values = query.values
    values.merge(body.values) { _, bodyValue in bodyValue }
    return RequestFields(
      encoding: body.encoding, values: values, names: query.names.union(body.names),
      repeated: query.repeated.union(body.repeated))
  }

  private static func fromPairs(_ pairs: [FormEncoding.Pair], encoding: Encoding) -> RequestFields {
    var values: [String: String] = [:]
    var repeated: Set<String> = []
    for pair in pairs {
      if values[pair.name] != nil {
        repeated.insert(pair.name)
      } else {
        values[pair.name] = pair.value
      }
    }
    return RequestFields(
      encoding: encoding, values: values, names: Set(values.keys), repeated: repeated)
  }

  private static func json(_ body: [UInt8]) -> RequestFields {
    guard let object = JSONValue.object(from: body) else {
      return RequestFields(encoding: .malformedJSON, values: [:], names: [], repeated: [])
    }
    var values: [String: String] = [:]
    for (name, value) in object {
      if let string = value.stringValue { values[name] = string }
    }
    return RequestFields(encoding: .json, values: values, names: Set(object.keys), repeated: [])
  }
}
