import Foundation
import TestSupport
import Testing

/// The curses back end in a real terminal (tmux): wide characters, keys, resize, wake-ups,
/// pastes, the clipboard, colours, and the terminal given back on Ctrl-C and crashes.
@Suite struct TmuxSmokeTests {
  /// The fixture, followed by a report of how it ended and whether the terminal is back in
  /// its normal (canonical, echoing) mode.
  static func command(_ arguments: String = "") -> String {
    // The shell ignores SIGINT so it survives the Ctrl-C that ends the fixture, waits for it
    // and reports; the fixture puts SIGINT back to its default before opening the screen.
    "trap '' INT; ulimit -c 0; \(Products.path("TerminalFixture")) --default-sigint \(arguments); "
      + "echo fixture-exit=$?; "
      + "if stty -a | grep -q -- '-icanon'; then echo tty=raw; else echo tty=cooked; fi; "
      // Keep the pane alive: tmux's "Pane is dead" line would scroll the report away.
      + "exec sleep 600"
  }

  /// No backtraces (slow, and not what these tests look at).
  static let environment: [String: String?] = ["SWIFT_BACKTRACE": "enable=no", "NO_COLOR": nil]

  /// For a fixture that crashes on purpose: under `make test-tsan` / `make test-asan` the
  /// sanitizer would otherwise take the segmentation fault over, report it as a finding and exit
  /// with its own status instead of dying of SIGSEGV.
  static let crashingEnvironment: [String: String?] = {
    var result = environment
    for name in ["TSAN_OPTIONS", "ASAN_OPTIONS"] {
      if let options = ProcessInfo.processInfo.environment[name] {
        result[name] = options + ":handle_segv=0"
      }
    }
    return result
  }()

  @Test func drawsWideCharactersAlignedAndReportsKeys() async throws {
    try await TmuxSession.run(Self.command(), environment: Self.environment) { tmux in
      let screen = try await tmux.waitFor("ready")
      #expect(screen[0] == "terminal fixture")
      #expect(screen[1] == "size 80x24")
      #expect(screen[2] == "日本語|")
      #expect(screen[3] == "🔑 key|")
      for (key, label) in [
        ("a", "a"), ("C-r", "Ctrl-R"), ("Up", "↑"), ("F5", "F5"), ("BTab", "Shift-Tab"),
        ("Enter", "Enter"), ("Escape", "Esc"), ("PPage", "PgUp"), ("Space", "Space"),
      ] {
        try await tmux.sendKeys(key)
        try await tmux.waitFor("key: \(label)")
      }
    }
  }

  @Test func backgroundWorkWakesTheLoopWithoutAKey() async throws {
    try await TmuxSession.run(Self.command(), environment: Self.environment) { tmux in
      // The fixture waits a minute for keys; only the waker can bring this in sooner.
      try await tmux.waitFor("worker: hello from a worker thread")
    }
  }

  /// With SIGWINCH blocked on every thread (a loop on a libdispatch worker), the poll timeout
  /// still notices the new size.
  @Test(arguments: ["", "--block-sigwinch"])
  func redrawsAtTheNewSizeAfterAResize(options: String) async throws {
    try await TmuxSession.run(Self.command(options), environment: Self.environment) { tmux in
      try await tmux.waitFor("ready")
      try await tmux.resize(columns: 60, rows: 16)
      let screen = try await tmux.waitFor("size 60x16")
      #expect(screen.count == 16)
      #expect(screen[15] == "q quit  c copy  x crash")
      #expect(screen[2] == "日本語|")
    }
  }

  /// Quitting, Ctrl-C (SIGINT), a segmentation fault and abort() all leave the alternate
  /// screen and put the terminal back in cooked mode, and the process still ends as it would
  /// have (status 0, or 128 + the signal).
  @Test(arguments: [("q", 0), ("C-c", 130), ("x", 139), ("A", 134)])
  func everyWayOutGivesTheTerminalBack(key: String, status: Int) async throws {
    let environment = status == 139 ? Self.crashingEnvironment : Self.environment
    try await TmuxSession.run(Self.command(), environment: environment) { tmux in
      try await tmux.waitFor("ready")
      try await tmux.sendKeys(key)
      let end = try await tmux.waitFor("tty=")
      #expect(end.contains("fixture-exit=\(status)"))
      #expect(end.contains("tty=cooked"))
      #expect(try await tmux.paneValue("#{alternate_on}") == "0")
    }
  }

  @Test func aPasteArrivesAsOneEventAndCopyReachesTheClipboard() async throws {
    try await TmuxSession.run(Self.command(), environment: Self.environment) { tmux in
      try await tmux.waitFor("ready")
      try await tmux.tmux("set-buffer", "-b", "typed", "https://example.com/cb?code=1")
      try await tmux.tmux("paste-buffer", "-p", "-b", "typed", "-t", tmux.target)
      try await tmux.waitFor("pasted: https://example.com/cb?code=1")
      try await tmux.waitFor("key: Paste")
      try await tmux.sendKeys("c")
      try await tmux.waitFor("key: c")
      #expect(
        try await tmux.buffer(becoming: "fixture clipboard text") == "fixture clipboard text")
    }
  }

  @Test func drawsThemeColoursAndNoColourWithNoColor() async throws {
    let colored = try await TmuxSession.run(Self.command(), environment: Self.environment) {
      tmux in
      try await tmux.waitFor("ready")
      return try await tmux.capture(escapes: true)
    }
    // The default theme's title: white (231) on dark blue (18).
    #expect(colored[0].contains("38;5;231"))
    #expect(colored[0].contains("48;5;18"))

    var environment = Self.environment
    environment["NO_COLOR"] = "1"
    let plain = try await TmuxSession.run(Self.command(), environment: environment) { tmux in
      try await tmux.waitFor("ready")
      return try await tmux.capture(escapes: true)
    }
    let codes = plain.flatMap(Self.sgrParameters)
    #expect(!codes.isEmpty)
    #expect(
      codes.allSatisfy {
        !(30...37 ~= $0 || 40...47 ~= $0 || 90...107 ~= $0 || $0 == 38 || $0 == 48)
      })
    // The monochrome theme still marks the title (reverse) and the status line.
    #expect(codes.contains(7))
  }

  /// Every SGR parameter (`ESC [ … m`) in a captured line.
  static func sgrParameters(_ line: String) -> [Int] {
    var parameters: [Int] = []
    var rest = Substring(line)
    while let start = rest.range(of: "\u{1B}[") {
      rest = rest[start.upperBound...]
      guard let end = rest.firstIndex(where: { !($0.isNumber || $0 == ";") }) else { break }
      if rest[end] == "m" {
        parameters += rest[..<end].split(separator: ";").compactMap { Int($0) }
      }
      rest = rest[end...]
    }
    return parameters
  }
}
