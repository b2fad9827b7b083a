import Foundation

/// An `http://127.0.0.1:PORT/…` URL, the only kind the scripted browser visits.
struct LoopbackURL: CustomStringConvertible {
  let port: UInt16
  /// Path and query, as sent in the request line.
  let target: String

  init?(_ text: String) {
    let prefixes = ["http://127.0.0.1", "http://localhost"]
    guard let prefix = prefixes.first(where: { text.lowercased().hasPrefix($0) }) else {
      return nil
    }
    var rest = text.dropFirst(prefix.count)
    var port: UInt16 = 80
    if rest.hasPrefix(":") {
      let digits = rest.dropFirst().prefix { $0.isNumber }
      guard let parsed = UInt16(digits) else { return nil }
      port = parsed
      rest = rest.dropFirst(1 + digits.count)
    }
    guard rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix("?") else { return nil }
    let withoutFragment = rest.prefix { $0 != "#" }
    self.init(
      port: port,
      target: withoutFragment.hasPrefix("/") ? String(withoutFragment) : "/" + withoutFragment)
  }

  init(port: UInt16, target: String) {
    self.port = port
    self.target = target
  }

  var path: String { String(target.prefix { $0 != "?" }) }

  var description: String { "http://127.0.0.1:\(port)\(target)" }

  /// A `Location` or form `action` resolved against this URL.
  func resolving(_ reference: String) -> LoopbackURL? {
    if reference.lowercased().hasPrefix("http://") || reference.lowercased().hasPrefix("https://") {
      return LoopbackURL(reference)
    }
    if reference.hasPrefix("//") { return LoopbackURL("http:" + reference) }
    if reference.hasPrefix("/") { return LoopbackURL(port: port, target: reference) }
    if reference.hasPrefix("?") { return LoopbackURL(port: port, target: path + reference) }
    let directory =
      path.hasSuffix("/") ? path : String(path[...(path.lastIndex(of: "/") ?? path.startIndex)])
    return LoopbackURL(port: port, target: directory + reference)
  }

  func withQuery(_ query: String) -> LoopbackURL {
    LoopbackURL(port: port, target: path + (query.isEmpty ? "" : "?" + query))
  }
}
