import Foundation

/// What `authtui ssh [SSH OPTION]... DESTINATION [-- COMMAND...]` hands to the system's `ssh`:
/// the user's options as they are, the agent's socket forwarded (`-R`) to a fresh private path
/// on the remote side, and a remote command that moves the socket into a private folder, sets
/// `AUTHTUI_AGENT_SOCKET` (and `AUTHTUI_AGENT_FORWARDED=1`) and runs COMMAND, or a login
/// shell, removing the socket and its folder when it ends.
///
/// sshd binds the forwarded socket itself before the remote command runs, with its
/// `StreamLocalBindMask` (0177 unless the server says otherwise: a 0600 socket), at a path
/// whose folder must exist already: `/tmp/authtui-fwd-RANDOM.sock`, 128 random bits that
/// nobody can guess or take first. The remote command then makes `/tmp/authtui-fwd-RANDOM`
/// (0700; `mkdir` fails if anything is there) and renames the socket into it, since
/// `authtui token` talks only to a socket in a folder that only its user can use. /tmp's
/// sticky bit keeps other users from renaming or removing it meanwhile.
struct SSHForwarding: Sendable, Equatable {
  /// The user's ssh options, in order, as given.
  let options: [String]
  /// The host to connect to (`[user@]host` or `ssh://…`).
  let destination: String
  /// The remote command and its arguments; empty for a login shell.
  let command: [String]
  /// The random part of the remote paths (32 hexadecimal digits).
  let name: String
  /// True when the user chose whether ssh allocates a terminal (`-t`, `-T`).
  let choosesTerminal: Bool

  /// ssh's options that take a value (ssh(1)): `-p 22` or `-p22`.
  static let optionsWithValue = Set("BbcDEeFIiJLlmOopQRSWw")
  /// ssh's options that leave no remote command of authtui's to run, and what they do.
  static let refusedOptions: [Character: String] = [
    "N": "runs no remote command", "W": "forwards standard input and output instead",
    "s": "runs a subsystem instead of a command", "O": "controls a master connection instead",
  ]

  /// Reads the words before `--` (the user's ssh options, then DESTINATION) and COMMAND,
  /// with `name` the random part of the remote paths; a usage error says what is wrong.
  init(words: [String], command: [String], name: String) throws(CommandFailure) {
    var options: [String] = []
    var destination: String?
    var choosesTerminal = false
    var rest = words[...]
    while let word = rest.popFirst() {
      guard destination == nil else {
        throw Self.usage(
          "COMMAND goes after `--`, as in `authtui ssh \(destination ?? "HOST") -- \(word)`; "
            + "ssh options go before DESTINATION")
      }
      guard word.hasPrefix("-"), word.count > 1 else {
        destination = word
        continue
      }
      options.append(word)
      // A cluster of flags (`-tv`), the last of which may take a value (`-vp22`, `-p 22`).
      for (offset, letter) in word.dropFirst().enumerated() {
        if let effect = Self.refusedOptions[letter] {
          throw Self.usage(
            "ssh's -\(letter) \(effect), so the agent's socket could not be set up or removed; "
              + "leave it out (authtui ssh runs COMMAND, or a login shell)")
        }
        guard Self.optionsWithValue.contains(letter) else {
          if letter == "t" || letter == "T" { choosesTerminal = true }
          continue
        }
        if offset == word.count - 2 {
          guard let value = rest.popFirst() else {
            throw Self.usage("ssh's -\(letter) needs a value, and DESTINATION comes after it")
          }
          options.append(value)
        }
        break
      }
    }
    guard let destination else {
      throw Self.usage("'ssh' needs DESTINATION, the host to connect to")
    }
    self.options = options
    self.destination = destination
    self.command = command
    self.name = name
    self.choosesTerminal = choosesTerminal
  }

  private static func usage(_ message: String) -> CommandFailure {
    CommandFailure(
      exitCode: .usage,
      message: message + " (usage: authtui ssh [SSH OPTION]... DESTINATION [-- COMMAND [ARGS...]])")
  }

  /// The path sshd binds on the remote side.
  var boundPath: String { "/tmp/authtui-fwd-\(name).sock" }
  /// The private folder the remote command makes, and the socket's final path in it.
  var remoteFolder: String { "/tmp/authtui-fwd-\(name)" }
  /// The socket's path on the remote side: `AUTHTUI_AGENT_SOCKET` there.
  var remoteSocket: String { remoteFolder + "/agent.sock" }

  /// ssh's arguments (after its name), forwarding the agent's socket at `localSocket`: the
  /// forwarding set up first, so that the user's `-o` cannot turn its safety off (ssh takes
  /// the first value of each option), then the user's options, DESTINATION and the remote
  /// command, one word that the remote user's shell reads.
  func arguments(localSocket: String) -> [String] {
    var arguments = [
      "-o", "ExitOnForwardFailure=yes", "-R", "\(boundPath):\(localSocket)",
    ]
    if command.isEmpty && !choosesTerminal { arguments.append("-t") }
    arguments += options
    arguments += [destination, remoteCommand]
    return arguments
  }

  /// The remote command: a POSIX `sh` script (no single quote or backslash in it, so that
  /// the user's login shell, whichever it is, passes it on as it is) followed by COMMAND's
  /// words, each single-quoted for that shell.
  var remoteCommand: String {
    let script = [
      "s=\(boundPath)", "d=\(remoteFolder)",
      "trap \"rm -rf $d $s\" EXIT", "trap \"exit 129\" HUP", "trap \"exit 130\" INT",
      "trap \"exit 143\" TERM",
      "if ! { mkdir -m 700 $d && mv $s $d/agent.sock; }; then echo \"authtui ssh: cannot make "
        + "the private folder $d for the forwarded agent socket on this machine\" >&2; "
        + "exit 255; fi",
      "AUTHTUI_AGENT_SOCKET=$d/agent.sock", "AUTHTUI_AGENT_FORWARDED=1",
      "export AUTHTUI_AGENT_SOCKET AUTHTUI_AGENT_FORWARDED",
      "if [ $# -eq 0 ]; then \"${SHELL:-/bin/sh}\" -l; else \"$@\"; fi",
    ].joined(separator: "; ")
    return (["/bin/sh", "-c", "'\(script)'", "authtui-ssh"] + command.map(Self.quoted))
      .joined(separator: " ")
  }

  /// `word` single-quoted for a POSIX shell: `'it'\''s'`.
  static func quoted(_ word: String) -> String {
    "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  /// A fresh random name for the remote paths.
  static func randomName(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
  }
}
