/// The completion scripts `authtui completion bash|zsh|fish` prints, generated from the
/// command table (`CompletionModel`). Account and provider names are asked of authtui itself
/// when completing (`authtui completion --words accounts|providers`), which never asks for a
/// passphrase: it answers from a running agent, or from the vault when a passphrase variable is
/// set, else with nothing.
///
/// bash and zsh share one POSIX function that reads the words typed so far and says what the
/// next one can be; each shell's wrapper turns that into its own candidates. fish gets its own
/// `complete` rules.
enum CompletionScript {
  /// The bash script (`source <(authtui completion bash)`).
  ///
  /// bash inserts each of `COMPREPLY` as it is, unlike zsh's `compadd` and fish: a file or an
  /// account with a space in its name (`my file.env`, `sandbox/bob smith`) would become two
  /// words. Files and folders are offered as they are, with `compopt -o filenames`, so that
  /// readline quotes them as it quotes its own (and adds `/` to a folder); every other word
  /// is offered `printf %q`-quoted, unless the word being typed opened a quote, which readline
  /// then closes. The word typed so far is matched with its quoting removed (`my\ fi`).
  static func bash(_ model: CompletionModel) -> String {
    header("bash", install: "source <(authtui completion bash)   # in ~/.bashrc")
      + shared(model) + """
        _authtui_unquote() {
          local word=$1 char
          _authtui_unquoted=
          case $word in
            "'"*) _authtui_unquoted=${word#"'"}; return ;;
            '"'*) word=${word#'"'} ;;
          esac
          while [[ -n $word ]]; do
            char=${word:0:1} word=${word:1}
            if [[ $char == '\\' && -n $word ]]; then char=${word:0:1} word=${word:1}; fi
            _authtui_unquoted+=$char
          done
        }
        _authtui() {
          local current=${COMP_WORDS[COMP_CWORD]} what word option _authtui_unquoted
          _authtui_unquote "$current"
          local typed=$_authtui_unquoted
          COMPREPLY=()
          while IFS= read -r what; do
            case $what in
              files|folders)
                option=-f; [[ $what == folders ]] && option=-d
                compopt -o filenames 2>/dev/null
                while IFS= read -r word; do COMPREPLY+=("$word"); done < <(compgen $option -- "$typed") ;;
              *) [[ $what == programs ]] && what=$(compgen -c -- "$typed")
                 while IFS= read -r word; do
                   [[ -n $word && $word == "$typed"* ]] || continue
                   case $current in "'"*|'"'*) ;; *) printf -v word '%q' "$word" ;; esac
                   COMPREPLY+=("$word")
                 done <<<"$what" ;;
            esac
          done < <(_authtui_expand "$typed" "${COMP_WORDS[@]:1:COMP_CWORD-1}")
        }
        complete -F _authtui authtui

        """
  }

  /// The zsh script (`source <(authtui completion zsh)` after `compinit`, or saved as `_authtui`
  /// in a folder of `$fpath`).
  static func zsh(_ model: CompletionModel) -> String {
    header("zsh", install: "source <(authtui completion zsh)   # in ~/.zshrc, after compinit")
      + shared(model) + """
        _authtui() {
          local current=${words[CURRENT]} what
          local -a found
          for what in "${(@f)$(_authtui_expand "$current" "${(@)words[2,CURRENT-1]}")}"; do
            case $what in
              files) _files ;;
              folders) _files -/ ;;
              programs) _command_names ;;
              *) found+=("$what") ;;
            esac
          done
          (( ${#found} )) && compadd -- "${found[@]}"
        }
        (( $+functions[compdef] )) && compdef _authtui authtui

        """
  }

  /// The fish script (`authtui completion fish | source`, or saved in
  /// `~/.config/fish/completions/authtui.fish`).
  static func fish(_ model: CompletionModel) -> String {
    var lines = [
      "# fish completion for authtui, generated from its command table by",
      "# `authtui completion fish`; install: authtui completion fish > ~/.config/fish/completions/authtui.fish",
      "complete -c authtui -f",
      "complete -c authtui -n __fish_use_subcommand -a " + quoted(model.commandNames),
    ]
    lines += fishProviderFlows(model) + fishSeparated
    for option in model.globalOptions {
      lines.append("complete -c authtui " + fishOption(option))
    }
    for command in model.commands {
      let condition: String
      if command.words.count == 1 {
        let actions = model.actions(of: command.words[0])
        condition =
          "__fish_seen_subcommand_from \(command.words[0])"
          + (actions.isEmpty
            ? "" : "; and not __fish_seen_subcommand_from \(actions.joined(separator: " "))")
        if !actions.isEmpty {
          lines.append("complete -c authtui -n '\(condition)' -a " + quoted(actions))
        }
      } else {
        condition =
          "__fish_seen_subcommand_from \(command.words[1])"
          + "; and __fish_seen_subcommand_from \(command.words[0])"
      }
      // After `--` the words are another program's: authtui's options and arguments stop.
      let before =
        command.afterSeparator == nil ? condition : condition + "; and not __authtui_separated"
      for option in command.options {
        lines.append("complete -c authtui -n '\(before)' " + fishOption(option))
      }
      if let first = command.arguments.first, let words = fishWords(first, model) {
        lines.append("complete -c authtui -n '\(before)' -a " + words)
      }
      if command.afterSeparator == .programs {
        lines.append(
          "complete -c authtui -n '\(condition); and __authtui_separated 0' -x -a '(__fish_complete_command)'"
        )
        lines.append(
          "complete -c authtui -n '\(condition); and __authtui_separated; and not __authtui_separated 0' -F"
        )
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  // MARK: bash and zsh

  private static func header(_ shell: String, install: String) -> String {
    """
    # \(shell) completion for authtui, generated from its command table by
    # `authtui completion \(shell)`; install: \(install)

    """
  }

  /// The functions both shells run (POSIX sh; zsh runs them emulating sh):
  /// `_authtui_expand CURRENT WORDS…` prints the candidates for the word being typed after
  /// WORDS, one per line, or `files` / `folders` / `programs` for the shell to complete
  /// itself. Words after `--` are another program's (`exec ACCOUNT -- COMMAND…`): counted
  /// apart, never read as authtui's options.
  private static func shared(_ model: CompletionModel) -> String {
    var lines = [
      "_authtui_expand() {",
      "  [ -n \"$ZSH_VERSION\" ] && emulate -L sh",
      "  _authtui_current=$1; shift",
      "  _authtui_scope= _authtui_option= _authtui_count=0 _authtui_first= _authtui_rest=",
      "  for _authtui_word in \"$@\"; do",
      "    if [ -n \"$_authtui_rest\" ]; then _authtui_rest=$((_authtui_rest + 1)); continue; fi",
      "    if [ -n \"$_authtui_option\" ]; then _authtui_option=; continue; fi",
      "    case $_authtui_word in",
      "      --) _authtui_rest=0; continue ;;",
      "      --*=*) continue ;;",
      "      --*) _authtui_takes_value \"$_authtui_scope\" \"${_authtui_word#--}\" &&"
        + " _authtui_option=${_authtui_word#--}; continue ;;",
      "    esac",
      "    if [ -z \"$_authtui_scope\" ]; then _authtui_scope=$_authtui_word",
      "    elif [ \"$_authtui_count\" -eq 0 ] && _authtui_is_action \"$_authtui_scope $_authtui_word\"; then",
      "      _authtui_scope=\"$_authtui_scope $_authtui_word\"",
      "    else [ \"$_authtui_count\" -eq 0 ] && _authtui_first=$_authtui_word",
      "      _authtui_count=$((_authtui_count + 1)); fi",
      "  done",
      "  if [ -n \"$_authtui_rest\" ]; then _authtui_separated \"$_authtui_scope\" \"$_authtui_rest\"; return; fi",
      "  if [ -n \"$_authtui_option\" ]; then",
      "    _authtui_value \"$_authtui_scope\" \"$_authtui_option\" \"$_authtui_first\"; return",
      "  fi",
      "  case $_authtui_current in -*) _authtui_options \"$_authtui_scope\"; return ;; esac",
      "  if [ -z \"$_authtui_scope\" ]; then printf '%s\\n' "
        + model.commandNames.joined(separator: " ") + "; return; fi",
      "  _authtui_argument \"$_authtui_scope\" \"$_authtui_count\"",
      "}",
      "",
    ]
    // Which options take a value, and what it is.
    lines.append("_authtui_takes_value() {")
    lines.append("  case \"$1:$2\" in")
    let valued = valuedOptions(model)
    if !valued.isEmpty {
      lines.append(
        "    " + valued.map { pattern($0.scope, $0.name) }.joined(separator: "|") + ") return 0 ;;")
    }
    lines += ["  esac", "  return 1", "}", ""]
    lines.append("_authtui_value() {")
    lines.append("  case \"$1:$2\" in")
    for entry in valued {
      guard let action = shellAction(entry.value, model) else { continue }
      lines.append("    \(pattern(entry.scope, entry.name))) \(action) ;;")
    }
    lines += ["  esac", "}", ""]
    // The action words (`agent start`).
    let actions = model.commands.filter { $0.words.count == 2 }.map {
      $0.words.joined(separator: " ")
    }
    lines.append("_authtui_is_action() {")
    lines.append("  case \"$1\" in")
    if !actions.isEmpty {
      lines.append("    " + actions.map { "\"\($0)\"" }.joined(separator: "|") + ") return 0 ;;")
    }
    lines += ["  esac", "  return 1", "}", ""]
    // The options of each scope, then the global ones.
    let globals = model.globalOptions.map { "--" + $0.name }.joined(separator: " ")
    lines.append("_authtui_options() {")
    lines.append("  case \"$1\" in")
    for command in model.commands where !command.options.isEmpty {
      let names = command.options.map { "--" + $0.name }.joined(separator: " ")
      lines.append("    \"\(command.words.joined(separator: " "))\") printf '%s\\n' \(names) ;;")
    }
    lines += ["  esac", "  printf '%s\\n' \(globals)", "}", ""]
    // The positional arguments, and the actions of a command that has them.
    lines.append("_authtui_argument() {")
    lines.append("  case \"$1:$2\" in")
    for command in model.commands {
      let scope = command.words.joined(separator: " ")
      let actionWords = command.words.count == 1 ? model.actions(of: scope) : []
      var offers: [String] = []
      if !actionWords.isEmpty {
        offers.append("printf '%s\\n' " + actionWords.joined(separator: " "))
      }
      if let first = command.arguments.first, let action = shellAction(first, model) {
        offers.append(action)
      }
      if !offers.isEmpty {
        lines.append("    \"\(scope):0\") \(offers.joined(separator: "; ")) ;;")
      }
      for (index, argument) in command.arguments.enumerated().dropFirst() {
        if let action = shellAction(argument, model) {
          lines.append("    \"\(scope):\(index)\") \(action) ;;")
        }
      }
    }
    lines += ["  esac", "}", ""]
    // The words after `--`: the program to run, then its arguments.
    lines.append("_authtui_separated() {")
    lines.append("  case \"$1:$2\" in")
    for command in model.commands {
      let scope = command.words.joined(separator: " ")
      switch command.afterSeparator {
      case .programs?:
        lines.append("    \"\(scope):0\") echo programs ;;")
        lines.append("    \"\(scope):\"*) echo files ;;")
      case let words?:
        if let action = shellAction(words, model) {
          lines.append("    \"\(scope):\"*) \(action) ;;")
        }
      case nil: break
      }
    }
    lines += ["  esac", "}", ""]
    return lines.joined(separator: "\n")
  }

  /// The `case` pattern of option `name` in `scope` (`*`, unquoted, for every scope).
  private static func pattern(_ scope: String, _ name: String) -> String {
    scope == "*" ? "*:\(name)" : "\"\(scope):\(name)\""
  }

  /// Every option that takes a value, with the scope it belongs to (`*` for the global ones).
  private static func valuedOptions(_ model: CompletionModel)
    -> [(scope: String, name: String, value: CompletionModel.Words)]
  {
    var entries: [(scope: String, name: String, value: CompletionModel.Words)] = []
    for option in model.globalOptions {
      if let value = option.value { entries.append(("*", option.name, value)) }
    }
    for command in model.commands {
      for option in command.options {
        if let value = option.value {
          entries.append((command.words.joined(separator: " "), option.name, value))
        }
      }
    }
    return entries
  }

  /// The shell code that prints the candidates for `words`; nil when there are none.
  private static func shellAction(_ words: CompletionModel.Words, _ model: CompletionModel)
    -> String?
  {
    switch words {
    case .accounts: return "authtui completion --words accounts 2>/dev/null"
    case .providers: return "authtui completion --words providers 2>/dev/null"
    case .providerFlows(let all):
      // $3: the command's first argument, the provider, when it was typed.
      return "if [ -n \"$3\" ]; then authtui completion --words \"flows:$3\" 2>/dev/null; "
        + "else printf '%s\\n' " + all.joined(separator: " ") + "; fi"
    case .commands: return "printf '%s\\n' " + model.commandNames.joined(separator: " ")
    case .choices(let choices): return "printf '%s\\n' " + choices.joined(separator: " ")
    case .files: return "echo files"
    case .folders: return "echo folders"
    case .programs: return "echo programs"
    case .none: return nil
    }
  }

  // MARK: fish

  private static func fishOption(_ option: CompletionModel.Option) -> String {
    var text = "-l \(option.name)"
    switch option.value {
    case nil: break
    case .files?: text += " -r -F"
    case .folders?: text += " -x -a '(__fish_complete_directories)'"
    case .choices(let words)?: text += " -x -a " + quoted(words)
    case .providerFlows?: text += " -x -a '(__authtui_provider_flows)'"
    case .some: text += " -x"
    }
    return text
  }

  /// `__authtui_separated [N]`: true after `--` (with N, when N words follow it before the one
  /// being typed).
  private static let fishSeparated = [
    "function __authtui_separated",
    "    set -l words (commandline -opc)",
    "    set -l at (contains -i -- -- $words); or return 1",
    "    test (count $argv) -eq 0; or test (math (count $words) - $at) -eq $argv[1]",
    "end",
  ]

  /// `__authtui_provider_flows`: the flows of the provider the command line names (the first
  /// word after the command word that is no option and no option's value), or every flow
  /// before one is typed.
  private static func fishProviderFlows(_ model: CompletionModel) -> [String] {
    let valued = (model.globalOptions + model.commands.flatMap(\.options)).filter {
      $0.value != nil
    }.map { "--" + $0.name }
    let names = Array(Set(valued)).sorted().joined(separator: " ")
    let all =
      model.commands.flatMap(\.options).compactMap { option -> [String]? in
        if case .providerFlows(let all)? = option.value { return all }
        return nil
      }.first ?? []
    return [
      "function __authtui_provider_flows",
      "    set -l skip 0",
      "    set -l command",
      "    for word in (commandline -opc)[2..-1]",
      "        if test $skip -eq 1; set skip 0; continue; end",
      "        if contains -- $word \(names); set skip 1; continue; end",
      "        if string match -q -- '-*' $word; continue; end",
      "        if test -z \"$command\"; set command $word; continue; end",
      "        authtui completion --words flows:$word 2>/dev/null",
      "        return",
      "    end",
      "    printf '%s\\n' \(all.joined(separator: " "))",
      "end",
    ]
  }

  private static func fishWords(_ words: CompletionModel.Words, _ model: CompletionModel)
    -> String?
  {
    switch words {
    case .accounts: return "'(authtui completion --words accounts 2>/dev/null)'"
    case .providers: return "'(authtui completion --words providers 2>/dev/null)'"
    case .commands: return quoted(model.commandNames)
    case .choices(let choices), .providerFlows(let choices): return quoted(choices)
    case .files, .folders, .programs, .none: return nil
    }
  }

  private static func quoted(_ words: [String]) -> String {
    "'" + words.joined(separator: " ") + "'"
  }
}
