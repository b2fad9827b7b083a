import Foundation
import Testing

@testable import Commands

/// The README and docs/ (issue 28): the README stays short, every relative link leads to a
/// file (and its `#anchor` to a heading there), and every `authtui COMMAND` they name is a
/// command of the command table, with the action a command with actions needs.
@Suite struct DocumentationTests {
  /// The repository's root folder (this file is Tests/CommandsTests/DocumentationTests.swift).
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// README.md and every docs/*.md, as paths relative to the root.
  static func documents() throws -> [String] {
    let docs = try FileManager.default.contentsOfDirectory(
      atPath: root.appendingPathComponent("docs").path)
    return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
  }

  static func text(of path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  @Test func theReadmeHasAtMost250Lines() throws {
    let lines = try Self.text(of: "README.md").split(
      separator: "\n", omittingEmptySubsequences: false)
    // A final newline ends the last line; it does not start another.
    let count = lines.last == "" ? lines.count - 1 : lines.count
    #expect(count <= 250, "README.md has \(count) lines; move the detail into docs/")
  }

  @Test func everyRelativeLinkLeadsToAFileAndEveryAnchorToAHeading() throws {
    var broken: [String] = []
    for document in try Self.documents() {
      let folder = (document as NSString).deletingLastPathComponent
      for target in Markdown.links(in: try Self.text(of: document)) {
        if target.contains("://") || target.hasPrefix("mailto:") { continue }
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let file = String(parts[0])
        let path =
          file.isEmpty
          ? document
          : ((folder as NSString).appendingPathComponent(file) as NSString).standardizingPath
        let url = Self.root.appendingPathComponent(path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
          broken.append("\(document): \(target): no file \(path)")
          continue
        }
        guard parts.count == 2 else { continue }
        let anchor = String(parts[1])
        guard !isFolder.boolValue, path.hasSuffix(".md") else {
          broken.append("\(document): \(target): an anchor into a file that is not Markdown")
          continue
        }
        if !Markdown.anchors(in: try Self.text(of: path)).contains(anchor) {
          broken.append("\(document): \(target): no heading #\(anchor) in \(path)")
        }
      }
    }
    #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
  }

  @Test func everyCommandTheDocumentsNameIsInTheCommandTable() throws {
    let catalog = CommandCatalog.standard
    var unknown: [String] = []
    var named = Set<String>()
    for document in try Self.documents() {
      for (first, second) in try Markdown.commands(in: try Self.text(of: document)) {
        guard let command = catalog.command(named: first) else {
          unknown.append("\(document): `authtui \(first)` is not a command")
          continue
        }
        named.insert(first)
        // A command with actions and no words of its own takes an action word next.
        if let second, !command.actions.isEmpty, command.arguments.isEmpty,
          catalog.command(named: "\(first) \(second)") == nil
        {
          unknown.append("\(document): `authtui \(first) \(second)` is not an action of \(first)")
        }
      }
    }
    #expect(unknown.isEmpty, "\(unknown.joined(separator: "\n"))")
    // The scan itself finds the commands the README's tour names.
    #expect(
      named.isSuperset(of: ["demo", "token", "exec", "git-credential", "agent", "providers"]))
  }

  @Test func theScanFindsLinksAnchorsAndCommandsAsWritten() throws {
    let text = """
      # Title: the `authtui` way
      ## Other provider…
      See [the key table](user-guide.md#keys), [here](#other-provider) and https://example.com.
      Prose naming authtui token is not a command; `authtui token X` and `authtui --version` are
      looked at, the second not as a command.

      ```sh
      authtui vault init   # [not](a-link.md); builds authtui and more
      Registered authtui as the client.
      ```
      """
    #expect(Markdown.links(in: text) == ["user-guide.md#keys", "#other-provider"])
    #expect(Markdown.anchors(in: text) == ["title-the-authtui-way", "other-provider"])
    let commands = try Markdown.commands(in: text)
    #expect(commands.map(\.0) == ["token", "vault"])
    #expect(commands.map(\.1) == [nil, "init"])
  }
}

/// Just enough Markdown for the checks: links outside code, GitHub's heading anchors, and the
/// `authtui` command lines inside code spans and fenced blocks.
enum Markdown {
  /// The text outside fenced code blocks and code spans, and the code inside them. A code
  /// span may go on over a line break, not over a blank line.
  static func split(_ text: String) -> (prose: [String], code: [String]) {
    var prose: [String] = []
    var code: [String] = []
    var fenced = false
    var paragraph: [String] = []
    func endParagraph() {
      // Code spans: the text between pairs of backticks.
      let pieces = paragraph.joined(separator: "\n").split(
        separator: "`", omittingEmptySubsequences: false
      ).map(String.init)
      prose += pieces.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
      code += pieces.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
      paragraph = []
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
        endParagraph()
        fenced.toggle()
      } else if fenced {
        code.append(line)
      } else if line.trimmingCharacters(in: .whitespaces).isEmpty {
        endParagraph()
      } else {
        paragraph.append(line)
      }
    }
    endParagraph()
    return (prose, code)
  }

  /// The targets of `[text](target)` links in the prose.
  static func links(in text: String) -> [String] {
    let pattern = /\]\(([^)\s]+)\)/
    return split(text).prose.flatMap { line in line.matches(of: pattern).map { String($0.1) } }
  }

  /// The anchors GitHub gives the headings: lowercase, punctuation dropped, spaces as `-`.
  static func anchors(in text: String) -> Set<String> {
    var anchors: [String] = []
    var fenced = false
    for line in text.split(separator: "\n").map(String.init) {
      if line.hasPrefix("```") { fenced.toggle() }
      guard !fenced, line.hasPrefix("#") else { continue }
      let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
      anchors.append(slug(title))
    }
    return Set(anchors)
  }

  static func slug(_ title: String) -> String {
    String(
      title.lowercased().unicodeScalars.compactMap { scalar -> Character? in
        if scalar == " " { return "-" }
        if scalar == "-" || scalar == "_" || CharacterSet.alphanumerics.contains(scalar) {
          return Character(scalar)
        }
        return nil
      })
  }

  /// Each `authtui WORD [WORD]` in code: the command word, and the next word when it is a
  /// plain lowercase word (an action, or an argument). Options and placeholders are not words,
  /// and `authtui` after a word and a space is prose in a comment or an output ("Registered
  /// authtui as the client …"), not a command line.
  static func commands(in text: String) throws -> [(String, String?)] {
    let pattern = try NSRegularExpression(
      pattern: #"(?<![\w-])(?<![A-Za-z,] )authtui\s+([a-z][a-z0-9-]*)"#
        + #"(?:[ \n]+([a-z][a-z0-9-]*)\b(?![/.]))?"#)
    return split(text).code.flatMap { code in
      let whole = NSRange(code.startIndex..., in: code)
      return pattern.matches(in: code, range: whole).map { match in
        let word = { (index: Int) -> String? in
          Range(match.range(at: index), in: code).map { String(code[$0]) }
        }
        return (word(1) ?? "", word(2))
      }
    }
  }
}
