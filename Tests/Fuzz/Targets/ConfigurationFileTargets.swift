import Providers
import Terminal
import Theme

extension FuzzTargets {
  /// A provider file (`~/.config/authtui/providers/NAME.json`).
  ///
  /// A refusal names at least one problem, each at a line of the file.
  static let providerFile = FuzzTarget(
    name: "provider-file", summary: "ProviderFile.decode: provider files"
  ) { bytes in
    let text = String(fuzzInput: bytes)
    switch ProviderFile.decode(text, file: "fuzz.json") {
    case .success(let file):
      _ = file.overriding(ProviderFile())
    case .failure(let list):
      require(!list.problems.isEmpty, "a refusal without a problem")
      checkPositions(list.problems, in: text)
    }
  }

  /// `config.json`.
  ///
  /// Problems sit at lines of the file; key bindings have positions.
  static let configFile = FuzzTarget(
    name: "config", summary: "UserSettings.parse: config.json"
  ) { bytes in
    let text = String(fuzzInput: bytes)
    let (settings, problems) = UserSettings.parse(text, file: "config.json")
    checkPositions(problems, in: text)
    for action in settings.keys.keys {
      require(settings.keyPositions[action] != nil, "binding \(action) has no position")
    }
  }

  /// A theme file (`~/.config/authtui/themes/NAME.theme`, and the built-in `Themes/`).
  ///
  /// An error names a line of the file.
  static let themeFile = FuzzTarget(
    name: "theme", summary: "Theme(parsing:): theme files"
  ) { bytes in
    let text = String(fuzzInput: bytes)
    do throws(ThemeFileError) {
      let theme = try Theme(parsing: text, name: "fuzz", source: "fuzz.theme")
      for role in Role.known { _ = theme.style(for: role) }
    } catch {
      let lines = lineCount(of: text)
      require(error.line >= 1 && error.line <= lines, "error on line \(error.line) of \(lines)")
      _ = error.description
    }
  }

  private static func checkPositions(_ problems: [ProviderProblem], in text: String) {
    let lines = lineCount(of: text)
    for problem in problems {
      guard let position = problem.position else { continue }
      require(
        position.line >= 1 && position.line <= lines && position.column >= 1,
        "problem \"\(problem.message)\" at \(position) in \(lines) lines")
    }
  }
}
