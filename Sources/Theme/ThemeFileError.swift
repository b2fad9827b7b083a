import Spelling
import Terminal

/// A problem in a theme file, with the file and line it is on; the message names the fix.
public struct ThemeFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong with the line.
  public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
    /// A `[section]` other than `[palette]` and `[styles]`.
    case unknownSection(String)
    /// A `name = value` line before any section header.
    case outsideSection
    /// A line that is neither a section header, a comment nor `name = value`.
    case notAnEntry(String)
    /// A role that no screen draws with.
    case unknownRole(String, suggestion: String?)
    /// A word in a style that is no colour, no palette name and no attribute.
    case unknownColor(String, suggestion: String?)
    /// A word in a style that looks like a misspelt attribute.
    case unknownAttribute(String, suggestion: String)
    /// More than two colours in one style.
    case tooManyColors(String)
    /// `role =` with nothing after it.
    case emptyStyle(String)
    /// The same role styled twice.
    case duplicateRole(String, firstLine: Int)
    /// The same palette name defined twice.
    case duplicatePaletteName(String, firstLine: Int)
    /// A palette name that is already a colour or attribute word, or has odd characters.
    case unusablePaletteName(String)
    /// A palette entry whose value is not exactly one colour.
    case paletteNeedsOneColor(String)

    public var description: String {
      switch self {
      case .unknownSection(let name):
        return
          "unknown section [\(MessageQuoting.shown(name))]; a theme has only [palette] and [styles]"
      case .outsideSection:
        return "this line comes before any section; put it under [palette] or [styles]"
      case .notAnEntry(let text):
        return
          "cannot read \(MessageQuoting.quoted(text)); write `name = value`, a [section] header, or a # comment"
      case .unknownRole(let role, let suggestion):
        let hint = suggestion.map { "did you mean \"\($0)\"? " } ?? ""
        return
          "unknown role \(MessageQuoting.quoted(role)) (\(hint)the roles are listed in docs/configuration.md \"Themes and keys\" "
          + "and in Themes/default.theme)"
      case .unknownColor(let word, let suggestion):
        let hint = suggestion.map { "did you mean \"\($0)\"? " } ?? ""
        return "unknown colour \(MessageQuoting.quoted(word)) (\(hint)use \(Color.themeSyntax))"
      case .unknownAttribute(let word, let suggestion):
        return
          "unknown attribute \(MessageQuoting.quoted(word)) (did you mean \(MessageQuoting.quoted(suggestion))? the attributes are "
          + "\(Attributes.named.map(\.name).joined(separator: ", ")))"
      case .tooManyColors(let value):
        return
          "more than two colours in \(MessageQuoting.quoted(value)); write the foreground, then the background, "
          + "then attributes"
      case .emptyStyle(let role):
        return
          "no style after \"\(role) =\"; write a foreground, a background and attributes, "
          + "for example `white blue bold`"
      case .duplicateRole(let role, let firstLine):
        return
          "role \(MessageQuoting.quoted(role)) is already styled on line \(firstLine); keep one of the two lines"
      case .duplicatePaletteName(let name, let firstLine):
        return
          "palette name \(MessageQuoting.quoted(name)) is already defined on line \(firstLine); keep one of the two"
      case .unusablePaletteName(let name):
        return
          "palette name \(MessageQuoting.quoted(name)) cannot be used: choose a name of lowercase letters, digits and "
          + "'-' that is not a colour or attribute word"
      case .paletteNeedsOneColor(let value):
        return
          "a palette entry is one colour, not \(MessageQuoting.quoted(value)); use \(Color.themeSyntax)"
      }
    }
  }

  /// The file (a path, or `built-in theme NAME`).
  public let source: String
  /// The 1-based line number.
  public let line: Int
  /// What is wrong.
  public let problem: Problem

  /// A problem on `line` of `source`.
  public init(source: String, line: Int, problem: Problem) {
    self.source = source
    self.line = line
    self.problem = problem
  }

  /// `path:line: problem`, the way compilers report.
  public var description: String { "\(source):\(line): \(problem)" }
}
