import Accounts
import Agent
import AuthCore
import Foundation
import Providers
import System

/// `authtui completion bash|zsh|fish`: the shell's completion script, generated from the
/// command table; and `completion --words accounts|providers`, what the scripts ask for the
/// names, which never asks for a passphrase.
struct CompletionCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "completion",
    summary: "Print the shell completion script for bash, zsh or fish.",
    details: """
      The script completes commands, their actions and options, option values (--flow pkce),
      files, and account and provider names, which it asks of authtui as you type: from a
      running `authtui agent`, or from the vault when AUTHTUI_PASSPHRASE or
      AUTHTUI_PASSPHRASE_FILE is set; it never asks for a passphrase, nor runs
      AUTHTUI_PASSPHRASE_COMMAND. Install it with one of:
        source <(authtui completion bash)                      # in ~/.bashrc
        source <(authtui completion zsh)                       # in ~/.zshrc, after compinit
        authtui completion fish > ~/.config/fish/completions/authtui.fish
      `make install` puts all three where the shells look under PREFIX.
      """,
    arguments: [
      .required(
        "SHELL", \.shell,
        .choice(Shell.allCases) { text, context in
          "no completion script for '\(text)' (usage: authtui \(context.usage))"
        })
    ],
    options: [
      .value(
        "words", \.question, .question, "accounts|providers", help: "names for the scripts",
        hidden: true, standsAlone: true)
    ])

  /// The shells there is a script for.
  enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish
  }

  /// What the scripts ask while completing (`--words`): the names they offer.
  enum Question: Sendable, Equatable {
    /// The account names.
    case accounts
    /// The provider ids.
    case providers
    /// The flows of the provider named so (`flows:github`).
    case flows(provider: String)
  }

  var global = GlobalOptions()
  /// The shell whose script is printed; read unless --words asks instead.
  var shell = Shell.bash
  /// `--words`: the scripts' question, answered instead of a script.
  var question: Question?

  func run(console: Console) async -> ExitCode {
    if let question {
      return await Self.names(question, global, console: console)
    }
    let model = CompletionModel(.standard)
    switch shell {
    case .bash: console.out(CompletionScript.bash(model))
    case .zsh: console.out(CompletionScript.zsh(model))
    case .fish: console.out(CompletionScript.fish(model))
    }
    return .ok
  }

  /// The names `question` asks for, or nothing (exit 0) when they cannot be had without asking.
  private static func names(_ question: Question, _ global: GlobalOptions, console: Console) async
    -> ExitCode
  {
    switch question {
    case .providers:
      let catalog = AccountAccess.catalog(global, console: console, reportProblems: false)
      console.out(catalog.entries.map(\.id.description).joined(separator: "\n"))
      return .ok
    case .flows(let text):
      // The flows of the provider `login PROVIDER --flow` names; nothing for an unknown one.
      guard let id = try? ProviderID(text) else { return .ok }
      let catalog = AccountAccess.catalog(
        global, console: console, reportProblems: false, providers: .only([id]))
      if let entry = catalog.entry(id) {
        console.out(entry.flows.map(\.rawValue).joined(separator: "\n"))
      }
      return .ok
    case .accounts:
      if let answer = await AgentAnswer.ask(
        .list, global, timeout: AgentAnswer.accountsTimeout, \.listing),
        case .success(let listing) = answer
      {
        console.out(listing.accounts.map(\.name.description).sorted().joined(separator: "\n"))
        return .ok
      }
      // Unlock only from a variable or its file: a completion must never stop to ask, and a
      // passphrase command may (pinentry, `pass`), at every TAB.
      switch PassphraseSource.current().origin {
      case .variable, .file: break
      case .command, .terminal: return .ok
      }
      guard let book = try? await AccountAccess.book(global, console: console),
        let listing = try? await book.listing()
      else { return .ok }
      // Every account of a listing has a name (`AccountBook.listing()`).
      let names = listing.accounts.compactMap { try? $0.accountName.description }
      console.out(names.sorted().joined(separator: "\n"))
      return .ok
    }
  }
}

extension ValueType where Value == CompletionCommand.Question {
  /// `accounts`, `providers` or `flows:PROVIDER`.
  static var question: ValueType {
    ValueType { text, _ throws(CommandFailure) in
      switch text {
      case "accounts": return .accounts
      case "providers": return .providers
      case let flows where flows.hasPrefix("flows:"):
        return .flows(provider: String(flows.dropFirst("flows:".count)))
      default:
        throw CommandFailure(
          exitCode: .usage,
          message: "--words takes accounts, providers or flows:PROVIDER, not '\(text)' "
            + "(it is for the completion scripts)")
      }
    }
  }
}
