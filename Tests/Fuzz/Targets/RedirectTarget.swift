import AuthCore
import Loopback

extension FuzzTargets {
  /// The redirect URL a person pastes (`AuthorizationResponse(pastedURL:)`) and the query
  /// decoding under it and under the loopback callback.
  ///
  /// Decoding then encoding then decoding a query gives the same pairs, and a response's
  /// description never holds the code or state it carries.
  static let redirect = FuzzTarget(
    name: "redirect", summary: "AuthorizationResponse: pasted redirect URLs and callback queries"
  ) { bytes in
    let text = String(fuzzInput: bytes)
    let pairs = FormEncoding.decode(text)
    let again = FormEncoding.decode(FormEncoding.encode(pairs))
    require(
      again.count == pairs.count
        && zip(again, pairs).allSatisfy { $0.name == $1.name && $0.value == $1.value },
      "decode(encode(decode(query))) differs from decode(query)")
    check(pairs)
    for redirectURI in ["http://127.0.0.1:8765/callback", "http://localhost/"] {
      guard let response = try? AuthorizationResponse(pastedURL: text, redirectURI: redirectURI)
      else { continue }
      _ = response.description
    }
  }

  /// The description of the response `pairs` make must not depend on the code's and state's
  /// values: with them replaced it reads the same.
  private static func check(_ pairs: [FormEncoding.Pair]) {
    let response = AuthorizationResponse(parameters: pairs)
    let redacted = AuthorizationResponse(
      parameters: pairs.map { ["code", "state"].contains($0.name) ? ($0.name, "x") : $0 })
    require(response.description == redacted.description, "the description shows a code or state")
  }
}
