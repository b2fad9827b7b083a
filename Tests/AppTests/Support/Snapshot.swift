import Foundation
import Terminal
import Testing

/// Golden screens: a frame's text, its role map and its cursor, kept in
/// `Tests/AppTests/Snapshots/<name>.txt`. `RECORD_SNAPSHOTS=1` rewrites the files; otherwise the
/// frame is compared with the file line by line and every differing line is reported.
enum Snapshot {
  /// One character per role in the role map.
  static let legend: [Role: Character] = [
    "default": ".", "title": "T", "title.detail": "t", "status": "s", "status.hint": "h",
    "status.key": "k", "status.error": "E", "status.warning": "W", "status.success": "S",
    "status.busy": "b", "spinner": "@", "list": "l", "list.header": "H", "list.group": "G",
    "list.selected": ">", "list.selected.match": "m", "list.selected.badge": "B",
    "list.secondary": "2", "list.match": "M", "list.empty": "e",
    "badge.valid": "v", "badge.expiring": "x", "badge.expired": "X", "badge.signin": "N",
    "countdown": "c", "countdown.urgent": "C", "countdown.bar": "#", "countdown.track": "-",
    "code": "Q", "qr": "R", "url": "U", "details": "d", "details.label": "D", "dialog": "g",
    "dialog.border": "|", "dialog.title": "^", "dialog.button": "o",
    "dialog.button.selected": "O", "dialog.warning": "w", "input": "i", "input.label": "I",
    "input.placeholder": "p", "help": "y", "help.section": "Y", "help.key": "K", "border": "+",
    "notice": "n", "scrollbar": "z",
  ]

  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Snapshots")

  /// The file's text for `buffer`.
  static func render(_ buffer: ScreenBuffer) -> String {
    var lines = ["size \(buffer.size.columns)x\(buffer.size.rows)"]
    lines += buffer.textLines().map { "|" + $0 }
    lines.append("roles")
    lines += buffer.roleLines(legend: legend).map { "|" + $0 }
    lines.append(buffer.cursor.map { "cursor \($0.row) \($0.column)" } ?? "cursor none")
    return lines.joined(separator: "\n") + "\n"
  }

  /// Compares `buffer` with the snapshot `name` (or records it).
  static func check(
    _ buffer: ScreenBuffer, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let file = directory.appendingPathComponent(name + ".txt")
    let actual = render(buffer)
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
      try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      do {
        try actual.write(to: file, atomically: true, encoding: .utf8)
      } catch {
        Issue.record("could not record \(file.path): \(error)", sourceLocation: sourceLocation)
      }
      return
    }
    guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
      let text = "no snapshot \(name).txt; run the tests with RECORD_SNAPSHOTS=1 to record it:\n"
      Issue.record("\(text)\(actual)", sourceLocation: sourceLocation)
      return
    }
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var differences: [String] = []
    for index in 0..<max(expectedLines.count, actualLines.count) {
      let want = index < expectedLines.count ? String(expectedLines[index]) : "<missing>"
      let got = index < actualLines.count ? String(actualLines[index]) : "<missing>"
      if want != got {
        differences.append("line \(index + 1):\n  expected \(want)\n  actual   \(got)")
      }
    }
    if !differences.isEmpty {
      let report = differences.joined(separator: "\n")
      Issue.record(
        "\(name).txt differs (RECORD_SNAPSHOTS=1 rewrites it):\n\(report)",
        sourceLocation: sourceLocation)
    }
  }
}
