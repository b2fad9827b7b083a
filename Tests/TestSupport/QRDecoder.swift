import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real QR decoder, zbarimg (Debian's zbar-tools), reading codes back from pictures of
/// them: for the encoder's tests and for what a terminal shows.
public enum QRDecoder {
  /// zbarimg, when this machine has it (CI installs it).
  public static let zbarimg: String? = ["/usr/bin/zbarimg", "/bin/zbarimg"].first {
    (path: String) in access(path, X_OK) == 0
  }

  /// The text zbarimg reads in `modules` (rows, dark is true), drawn `scale` pixels a module
  /// with a light margin of `margin` modules all round (the quiet zone, when the modules
  /// have none); "" when it finds no code.
  public static func decode(_ modules: [[Bool]], margin: Int = 4, scale: Int = 4) throws -> String {
    let width = (modules.map(\.count).max() ?? 0) + 2 * margin
    let blank = [Bool](repeating: false, count: width)
    let side = [Bool](repeating: false, count: margin)
    let rows =
      Array(repeating: blank, count: margin)
      + modules.map { side + $0 + [Bool](repeating: false, count: width - margin - $0.count) }
      + Array(repeating: blank, count: margin)
    var picture = "P1\n\(width * scale) \(rows.count * scale)\n"
    for row in rows {
      let line = row.map { $0 ? "1 " : "0 " }.map { String(repeating: $0, count: scale) }.joined()
      picture += String(repeating: line + "\n", count: scale)
    }
    let folder = try TemporaryDirectory()
    let path = try folder.write(picture, to: "code.pbm")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: zbarimg ?? "/usr/bin/zbarimg")
    process.arguments = ["-q", "--raw", path]
    let output = Pipe()
    process.standardOutput = output
    // It says on standard error that it found no D-Bus (for its scanner support): noise here.
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  /// The modules a half-block drawing shows: each character is two, `▀` the upper, `▄` the
  /// lower, `█` both; a line shorter than the others (a terminal drops trailing spaces) is
  /// light to the end.
  public static func modules(ofHalfBlocks lines: [String]) -> [[Bool]] {
    let width = lines.map(\.count).max() ?? 0
    return lines.flatMap { line -> [[Bool]] in
      let cells = Array(line) + Array(repeating: " ", count: width - line.count)
      return [cells.map { $0 == "█" || $0 == "▀" }, cells.map { $0 == "█" || $0 == "▄" }]
    }
  }
}
