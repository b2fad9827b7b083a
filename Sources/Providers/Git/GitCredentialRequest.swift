/// What git asks a credential helper, read from the helper's standard input (git-credential(1),
/// "INPUT/OUTPUT FORMAT"): `key=value` lines, ended by a blank line or the end of the input.
///
/// The value runs from the first `=` to the end of the line (it may hold `=`); a trailing
/// carriage return is dropped, as git drops it. Keys are kept in order, repeated ones
/// (`capability[]`, `wwwauth[]`) included, and keys this helper does not use are kept and
/// ignored: git adds new ones over time.
public struct GitCredentialRequest: Sendable, Equatable {
  /// The attributes in the order they came.
  public var attributes: [(key: String, value: String)]

  /// The largest request read: 64 KiB. git's requests are a few hundred bytes; more is not git.
  public static let sizeLimit = 64 * 1024

  /// The last value of `key` (git's own rule: a later line replaces an earlier one).
  public func value(_ key: String) -> String? {
    attributes.last { $0.key == key }?.value
  }

  /// `protocol`: `https`, `http`, `smtp`…
  public var scheme: String? { value("protocol") ?? urlParts?.scheme }
  /// `host`, with its port when not the default (`git.example.com:8443`).
  public var host: String? { value("host") ?? urlParts?.host }
  /// `path`, without its leading slash; git sends it for HTTP only under
  /// `credential.useHttpPath`.
  public var path: String? { value("path") ?? urlParts?.path }
  /// `username`, when the URL or the configuration named one.
  public var username: String? { value("username") }

  /// The parts of a `url=` attribute, which `git credential fill` accepts in place of the
  /// others.
  private var urlParts: (scheme: String, host: String, path: String?)? {
    guard let url = value("url"), let split = url.range(of: "://") else { return nil }
    var rest = url[split.upperBound...]
    if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
    let authority = rest.prefix { $0 != "/" }
    let host = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
    let path = rest.dropFirst(authority.count).drop { $0 == "/" }
    return (String(url[..<split.lowerBound]), String(host), path.isEmpty ? nil : String(path))
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.attributes.elementsEqual(rhs.attributes) { $0.key == $1.key && $0.value == $1.value }
  }

  /// The request in `bytes`, read up to the first blank line (what follows is not read).
  public static func parse(_ bytes: [UInt8]) throws(GitCredentialInputError)
    -> GitCredentialRequest
  {
    var attributes: [(key: String, value: String)] = []
    var lineNumber = 0
    var consumed = 0
    for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      lineNumber += 1
      consumed += rawLine.count + 1
      guard consumed <= sizeLimit + 1 else { throw .tooLarge(limit: sizeLimit) }
      var line = rawLine
      if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
      if line.isEmpty { break }
      guard !line.contains(0) else { throw .nulByte(line: lineNumber) }
      guard let text = String(validating: line, as: UTF8.self) else {
        throw .notUTF8(line: lineNumber)
      }
      guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
        throw .notKeyValue(line: lineNumber)
      }
      attributes.append((String(text[..<equals]), String(text[text.index(after: equals)...])))
    }
    return GitCredentialRequest(attributes: attributes)
  }

  /// True when `bytes` already hold a whole request: a blank line has been read (git closes
  /// the input after its request; a person typing ends with a blank line instead).
  public static func isComplete(_ bytes: [UInt8]) -> Bool {
    var previous: UInt8? = UInt8(ascii: "\n")
    var beforePrevious: UInt8? = nil
    for byte in bytes {
      if byte == UInt8(ascii: "\n") {
        if previous == UInt8(ascii: "\n")
          || (previous == UInt8(ascii: "\r") && beforePrevious == UInt8(ascii: "\n"))
        {
          return true
        }
      }
      beforePrevious = previous
      previous = byte
    }
    return false
  }
}

/// Why what git sent is not a credential request; `description` is the rest of a sentence.
public enum GitCredentialInputError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A line without `=`, or with nothing before it.
  case notKeyValue(line: Int)
  /// A line holding a NUL byte, which git never sends.
  case nulByte(line: Int)
  /// A line that is not UTF-8.
  case notUTF8(line: Int)
  /// More than `limit` bytes before the blank line.
  case tooLarge(limit: Int)

  public var description: String {
    switch self {
    case .notKeyValue(let line):
      return "line \(line) of the input is not key=value (git-credential(1) describes the format)"
    case .nulByte(let line): return "line \(line) of the input holds a NUL byte"
    case .notUTF8(let line): return "line \(line) of the input is not UTF-8"
    case .tooLarge(let limit):
      return "the input is over \(limit / 1024) KiB without a blank line; git's requests are a "
        + "few lines"
    }
  }
}
