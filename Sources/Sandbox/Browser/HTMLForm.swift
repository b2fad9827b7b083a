import Foundation

/// The forms of an HTML page, read the way a browser reads them, for code that plays the user:
/// enough of HTML for plain server-rendered pages (the sandbox's consent and verification
/// pages), not a general parser.
public struct HTMLForm: Sendable, Equatable {
  /// One `<input>`.
  public struct Field: Sendable, Equatable {
    public var name: String
    public var type: String
    public var value: String
    public var checked: Bool
  }

  /// One submit control: a `<button>` (type submit, the default) or an `<input type=submit>`.
  public struct Button: Sendable, Equatable {
    public var name: String?
    public var value: String
    /// The visible text.
    public var label: String
  }

  /// The `action` attribute as written (empty means the page's own URL).
  public var action: String
  /// `get` or `post`, lowercased.
  public var method: String
  public var fields: [Field]
  public var buttons: [Button]

  /// Every form of `html`, in order.
  public static func forms(in html: String) -> [HTMLForm] {
    var forms: [HTMLForm] = []
    var current: HTMLForm?
    var openButton: (attributes: [String: String], text: String)?
    var scanner = TagScanner(html)
    while let item = scanner.next() {
      switch item {
      case .text(let text):
        openButton?.text += text
      case .tag(let name, let attributes, let closing):
        switch (name, closing) {
        case ("form", false):
          current = HTMLForm(
            action: attributes["action"] ?? "",
            method: (attributes["method"] ?? "get").lowercased(),
            fields: [], buttons: [])
        case ("form", true):
          if let form = current { forms.append(form) }
          current = nil
        case ("input", false):
          let type = (attributes["type"] ?? "text").lowercased()
          if type == "submit" {
            current?.buttons.append(
              Button(
                name: attributes["name"], value: attributes["value"] ?? "",
                label: attributes["value"] ?? "Submit"))
          } else if let fieldName = attributes["name"] {
            current?.fields.append(
              Field(
                name: fieldName, type: type, value: attributes["value"] ?? "",
                checked: attributes["checked"] != nil))
          }
        case ("button", false):
          openButton = (attributes, "")
        case ("button", true):
          if let button = openButton,
            (button.attributes["type"] ?? "submit").lowercased() == "submit"
          {
            current?.buttons.append(
              Button(
                name: button.attributes["name"], value: button.attributes["value"] ?? "",
                label: button.text.trimmingCharacters(in: .whitespacesAndNewlines)))
          }
          openButton = nil
        default:
          break
        }
      }
    }
    return forms
  }
}

/// Splits HTML into tags (with decoded attributes) and text.
struct TagScanner {
  enum Item {
    case text(String)
    case tag(name: String, attributes: [String: String], closing: Bool)
  }

  private let characters: [Character]
  private var index = 0

  init(_ html: String) {
    characters = Array(html)
  }

  mutating func next() -> Item? {
    guard index < characters.count else { return nil }
    if characters[index] != "<" {
      let start = index
      while index < characters.count, characters[index] != "<" { index += 1 }
      return .text(Entities.decode(String(characters[start..<index])))
    }
    // Comments and doctype are skipped whole.
    if hasPrefix("<!--") {
      while index < characters.count, !hasPrefix("-->") { index += 1 }
      index = min(characters.count, index + 3)
      return .text("")
    }
    index += 1
    var closing = false
    if index < characters.count, characters[index] == "/" {
      closing = true
      index += 1
    }
    let name = readWhile { $0.isLetter || $0.isNumber || $0 == "!" }.lowercased()
    var attributes: [String: String] = [:]
    while index < characters.count, characters[index] != ">" {
      skipSpaces()
      if index < characters.count, characters[index] == "/" || characters[index] == ">" {
        if characters[index] == "/" { index += 1 }
        continue
      }
      let attribute = readWhile { !$0.isWhitespace && $0 != "=" && $0 != ">" && $0 != "/" }
        .lowercased()
      guard !attribute.isEmpty else {
        index += 1
        continue
      }
      skipSpaces()
      var value = ""
      if index < characters.count, characters[index] == "=" {
        index += 1
        skipSpaces()
        if index < characters.count, characters[index] == "\"" || characters[index] == "'" {
          let quote = characters[index]
          index += 1
          value = readWhile { $0 != quote }
          index += 1
        } else {
          value = readWhile { !$0.isWhitespace && $0 != ">" }
        }
      }
      if attributes[attribute] == nil { attributes[attribute] = Entities.decode(value) }
    }
    index += 1
    // The content of script and style is not markup.
    if !closing, name == "script" || name == "style" {
      while index < characters.count, !hasPrefix("</\(name)") { index += 1 }
    }
    return .tag(name: name, attributes: attributes, closing: closing)
  }

  private func hasPrefix(_ text: String) -> Bool {
    let probe = Array(text)
    guard index + probe.count <= characters.count else { return false }
    return Array(characters[index..<index + probe.count]).map { $0.lowercased() }
      == probe.map { $0.lowercased() }
  }

  private mutating func skipSpaces() {
    while index < characters.count, characters[index].isWhitespace { index += 1 }
  }

  private mutating func readWhile(_ predicate: (Character) -> Bool) -> String {
    let start = index
    while index < characters.count, predicate(characters[index]) { index += 1 }
    return String(characters[start..<index])
  }
}

/// The character references plain pages use.
enum Entities {
  static func decode(_ text: String) -> String {
    guard text.contains("&") else { return text }
    var output = ""
    var rest = Substring(text)
    while let ampersand = rest.firstIndex(of: "&") {
      output += rest[..<ampersand]
      rest = rest[ampersand...]
      guard let semicolon = rest.prefix(10).firstIndex(of: ";") else {
        output += "&"
        rest = rest.dropFirst()
        continue
      }
      let name = rest[rest.index(after: rest.startIndex)..<semicolon]
      if let decoded = decodeReference(name) {
        output += decoded
      } else {
        output += rest[...semicolon]
      }
      rest = rest[rest.index(after: semicolon)...]
    }
    return output + rest
  }

  private static func decodeReference(_ name: Substring) -> String? {
    switch name {
    case "amp": return "&"
    case "lt": return "<"
    case "gt": return ">"
    case "quot": return "\""
    case "apos": return "'"
    case "nbsp": return "\u{A0}"
    default:
      guard name.hasPrefix("#") else { return nil }
      let digits = name.dropFirst()
      let value =
        digits.hasPrefix("x") || digits.hasPrefix("X")
        ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
      return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
    }
  }
}
