import Foundation
import Spelling
import Terminal

/// The themes a user can choose with `--theme NAME` or `"theme"` in `config.json`: the
/// built-in ones (`Themes/*.theme`, compiled in) and the user's `<config dir>/themes/*.theme`.
///
/// A user theme with a built-in's name replaces it. A user file that cannot be read or parsed
/// is left out and reported in `problems`; the other themes still load.
public struct ThemeCatalog: Sendable {
  /// The theme used when none is chosen.
  public static let defaultThemeName = "default"
  /// The theme used for `NO_COLOR` and `--no-color` when none is chosen.
  public static let monochromeThemeName = "monochrome"

  /// Every theme by name.
  public let themes: [String: Theme]
  /// The names of the built-in themes, sorted.
  public let builtInNames: [String]
  /// User theme files that were left out, and why.
  public let problems: [ThemeCatalogError]
  /// The problem of each user theme that was left out, by theme name.
  private let problemsByName: [String: ThemeCatalogError]

  /// The built-in themes only.
  public init() {
    self.init(userThemesDirectory: nil, readFile: { _ in "" })
  }

  /// The built-in themes plus the `*.theme` files of `userThemesDirectory` (usually
  /// `<config dir>/themes`), each read with `readFile` (which refuses what is not a small
  /// regular file; its error's description follows the path in the message). A missing
  /// directory just means no user themes.
  public init(userThemesDirectory: String?, readFile: (_ path: String) throws -> String) {
    var themes: [String: Theme] = [:]
    var problems: [ThemeCatalogError] = []
    var problemsByName: [String: ThemeCatalogError] = [:]
    for file in BuiltInThemeFiles.all {
      do {
        themes[file.name] = try Theme(
          parsing: file.text, name: file.name, source: "built-in theme \(file.name)")
      } catch {
        problems.append(.invalid(error))
      }
    }
    builtInNames = themes.keys.sorted()
    if let directory = userThemesDirectory {
      let fileNames =
        (try? FileManager.default.contentsOfDirectory(atPath: directory))?.sorted() ?? []
      for fileName in fileNames where fileName.hasSuffix(".theme") {
        let path = (directory as NSString).appendingPathComponent(fileName)
        let name = String(fileName.dropLast(".theme".count))
        do {
          themes[name] = try Self.load(path: path, name: name, readFile: readFile)
        } catch {
          problems.append(error)
          problemsByName[name] = error
        }
      }
    }
    self.themes = themes
    self.problems = problems
    self.problemsByName = problemsByName
  }

  /// Every theme name, sorted.
  public var names: [String] { themes.keys.sorted() }

  /// The theme called `name`; when its file was left out, that file's problem.
  public func theme(named name: String) throws(ThemeCatalogError) -> Theme {
    if let theme = themes[name] { return theme }
    if let problem = problemsByName[name] { throw problem }
    throw .unknownTheme(
      name, suggestion: SpellingSuggestion.closest(to: name, among: names), available: names)
  }

  /// The theme to start with: `requested` (`--theme`, else `config.json`) when given, else
  /// `monochrome` when colours are off (`NO_COLOR`, `--no-color`), else `default`.
  public func theme(requested: String?, colorsOff: Bool) throws(ThemeCatalogError) -> Theme {
    try theme(
      named: requested ?? (colorsOff ? Self.monochromeThemeName : Self.defaultThemeName))
  }

  /// Reads (with `readFile`) and parses one theme file.
  public static func load(
    path: String, name: String, readFile: (_ path: String) throws -> String
  ) throws(ThemeCatalogError) -> Theme {
    let text: String
    do {
      text = try readFile(path)
    } catch {
      throw .unreadable(path: path, reason: "\(error)")
    }
    do {
      return try Theme(parsing: text, name: name, source: path)
    } catch {
      throw .invalid(error)
    }
  }
}

/// Why a theme could not be chosen or loaded; the message names the fix.
public enum ThemeCatalogError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No theme has this name.
  case unknownTheme(String, suggestion: String?, available: [String])
  /// A theme file exists but cannot be read; `reason` follows the path (`is a FIFO, not a
  /// file; …`).
  case unreadable(path: String, reason: String)
  /// A theme file has an error.
  case invalid(ThemeFileError)

  public var description: String {
    switch self {
    case .unknownTheme(let name, let suggestion, let available):
      let hint = suggestion.map { "did you mean \"\($0)\"? " } ?? ""
      return
        "no theme called \"\(name)\" (\(hint)available: \(available.joined(separator: ", ")); "
        + "user themes go in <config dir>/themes/NAME.theme)"
    case .unreadable(let path, let reason):
      return "\(path): \(reason)"
    case .invalid(let error):
      return error.description
    }
  }
}
