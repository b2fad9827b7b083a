import Foundation
import Spelling

/// `authtui.1`: the manual page, written in man(7) roff from the command table, so that it
/// says what `--help` and `help COMMAND` say (`authtui help --man`; `make install` puts it in
/// `PREFIX/share/man/man1`).
enum ManPage {
  /// Today (UTC, `2026-12-01`), or the day of `SOURCE_DATE_EPOCH` for a reproducible build.
  static func date(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> String
  {
    let seconds = environment["SOURCE_DATE_EPOCH"].flatMap(TimeInterval.init)
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate]
    return formatter.string(from: seconds.map(Date.init(timeIntervalSince1970:)) ?? Date())
  }

  /// The page for `catalog`, dated `date` (`2026-12-01`).
  static func render(_ catalog: CommandCatalog, date: String) -> String {
    var page = [
      #".TH AUTHTUI 1 "\#(date)" "authtui \#(BuildInfo.version)" "User Commands""#,
      // Left-aligned, not justified: usage lines and option lists read better unstretched.
      ".ad l",
      ".SH NAME",
      #"authtui \- OAuth accounts in the terminal"#,
      ".SH SYNOPSIS",
      ".B authtui",
      #"[\fIOPTIONS\fR]"#,
      ".br",
      ".B authtui",
      #"\fICOMMAND\fR [\fIARGUMENTS\fR]"#,
      ".SH DESCRIPTION",
      text(
        "Without a command, authtui opens the interactive account manager: providers and "
          + "signed-in accounts, sign-in under a visible countdown, refresh, sign-out and "
          + "export, all from the keyboard. With one, it runs that command for scripts."),
      ".SH COMMANDS",
    ]
    for command in catalog.commands {
      page += entry(command)
      for action in command.actions { page += entry(action) }
    }
    page += [".SH OPTIONS", "These are accepted by every command."]
    page += options(GlobalOptions.specs)
    page += [
      ".TP", #".B \-\-help"#, "Show help (also " + code("authtui help COMMAND") + ").",
      ".TP", #".B \-\-version"#, "Print the version.",
      ".SH EXIT STATUS",
    ]
    for status in ExitCode.allCases {
      page += [".TP", ".B \(status.rawValue)", text(status.meaning)]
    }
    page += [".SH ENVIRONMENT"]
    for (names, meaning) in environment {
      // `\%`: a variable's name is never hyphenated.
      let shown = names.components(separatedBy: ", ").map { #"\%"# + escaped($0) }
      page += [".TP", ".B " + shown.joined(separator: ", "), text(meaning)]
    }
    page += [
      ".SH FILES",
      ".TP", #".I $XDG_DATA_HOME/authtui/vault.db"#,
      text("The encrypted vault (else ~/.local/share/authtui/vault.db; --vault, AUTHTUI_VAULT)."),
      ".TP", #".I $XDG_CONFIG_HOME/authtui/"#,
      text(
        "Provider files (providers/*.json), themes and config.json (--config, AUTHTUI_CONFIG_DIR)."),
      ".TP", #".I $XDG_RUNTIME_DIR/authtui/agent.sock"#,
      text("The agent's socket (else /tmp/authtui-UID/agent.sock; AUTHTUI_AGENT_SOCKET)."),
      ".SH SEE ALSO",
      text(
        "The README and docs/ of authtui, for the providers, the security model and the recipes."),
    ]
    return page.joined(separator: "\n") + "\n"
  }

  /// The variables a user sets or a command sets for another, as docs/configuration.md's
  /// table states them.
  static let environment: [(String, String)] = [
    ("AUTHTUI_VAULT", "The vault file, as --vault."),
    ("AUTHTUI_CONFIG_DIR", "The configuration folder, as --config."),
    (
      "AUTHTUI_PASSPHRASE, AUTHTUI_PASSPHRASE_FILE, AUTHTUI_PASSPHRASE_COMMAND",
      "The vault's passphrase itself, the first line of a file (or pipe), or the first line a "
        + "command prints (stopped, with what it started, if it has not ended within 2 "
        + "minutes); the first that is set wins, else it is asked on the terminal."
    ),
    (
      "AUTHTUI_NEW_PASSPHRASE, AUTHTUI_NEW_PASSPHRASE_FILE, AUTHTUI_NEW_PASSPHRASE_COMMAND",
      "The new passphrase for vault passwd, the same way."
    ),
    ("AUTHTUI_AGENT_SOCKET", "The agent's socket, for the agent and its callers alike."),
    (
      "AUTHTUI_NO_AGENT",
      "1: token, list, export and logout never ask an agent, and none is left running."
    ),
    (
      "AUTHTUI_CONFIRM_COMMAND",
      "Read by the agent when it starts: the program asked to allow a token request it holds "
        + "when no authtui UI is open (the question on its standard input; exit 0 allows)."
    ),
    ("AUTHTUI_SSH", "The ssh program authtui ssh runs (default ssh)."),
    (
      "AUTHTUI_AGENT_FORWARDED",
      "1, set by authtui ssh on the remote side: requests name this machine to the agent."
    ),
    (
      "AUTHTUI_TOKEN, AUTHTUI_TOKEN_EXPIRES_AT, AUTHTUI_TOKEN_TYPE",
      "Set by exec for its COMMAND: the token, its expiry and its scheme (Bearer or DPoP)."
    ),
    ("BROWSER", "The command that opens a URL (%s marks where it goes); else xdg-open."),
    ("NO_COLOR", "Any non-empty value: no colour, as --no-color."),
    (
      "XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_RUNTIME_DIR",
      "Where the configuration, the vault and the agent's socket live by default."
    ),
  ]

  /// One command: its usage in bold, its summary, its details and options.
  private static func entry(_ command: CommandSpec) -> [String] {
    var lines = [".TP", ".B " + escaped("authtui " + command.usage), text(command.summary)]
    if !command.details.isEmpty {
      lines += [".RS", ".sp"] + paragraphs(command.details) + [".RE"]
    }
    if command.options.contains(where: { !$0.hidden }) {
      lines += [".RS", ".sp"] + options(command.options) + [".RE"]
    }
    return lines
  }

  private static func options(_ options: [OptionSpec]) -> [String] {
    options.filter { !$0.hidden }.flatMap { option in
      [
        ".TP",
        #".B \-\-"# + escaped(option.name)
          + (option.valueName.map { #" \fI"# + escaped($0) + #"\fR"# } ?? ""),
        text(option.help),
      ]
    }
  }

  /// The blocks of `details` (blank lines between them): a block whose lines are laid out in
  /// columns (indented, or with runs of spaces) keeps its lines; any other is filled.
  private static func paragraphs(_ details: String) -> [String] {
    var blocks: [[Substring]] = [[]]
    for line in details.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.allSatisfy({ $0 == " " }) {
        if blocks.last?.isEmpty == false { blocks.append([]) }
      } else {
        blocks[blocks.count - 1].append(line)
      }
    }
    return blocks.filter { !$0.isEmpty }.enumerated().flatMap { index, block in
      let laidOut = block.contains { $0.hasPrefix(" ") || $0.contains("   ") }
      let body =
        laidOut
        ? [".nf"] + block.map { text(String($0)) } + [".fi"]
        : [text(block.map { $0.trimmingHorizontalSpace }.joined(separator: " "))]
      return (index == 0 ? [] : [".PP"]) + body
    }
  }

  /// `words` as the literal text of one line.
  private static func code(_ words: String) -> String { #"\fB"# + escaped(words) + #"\fR"# }

  /// `line` as text: roff's escape character written out, and a line that would begin with a
  /// control character (`.` or `'`) or spaces kept as text.
  private static func text(_ line: String) -> String {
    let body = escaped(line)
    guard let first = body.first, first == "." || first == "'" || first == " " else {
      return body
    }
    return #"\&"# + body
  }

  private static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: #"\"#, with: #"\e"#).replacingOccurrences(of: "-", with: #"\-"#)
  }
}
