import Accounts
import Agent
import AuthCore
import Foundation
import Providers
import System

/// `authtui completion bash|zsh|fish`: the shell's completion script, generated from the
/// command table; and `completion --words accounts|providers`, what the scripts ask for the
/// names, which never asks for a passphrase.
enum CompletionCommand {
  /// The shells there is a script for.
  static let shells = ["bash", "zsh", "fish"]

  static let spec = CommandSpec(
    name: "completion", usage: "completion bash|zsh|fish",
    summary: "Print the shell completion script for bash, zsh or fish.",
    details: """
      The script completes commands, their actions and options, option values (--flow pkce),
      files, and account and provider names, which it asks of authtui as you type: from a
      running `authtui agent`, or from the vault when a passphrase variable is set; it never
      asks for a passphrase. Install it with one of:
        source <(authtui completion bash)                      # in ~/.bashrc
        source <(authtui completion zsh)                       # in ~/.zshrc, after compinit
        authtui completion fish > ~/.config/fish/completions/authtui.fish
      `make install` puts all three where the shells look under PREFIX.
      """,
    arguments: ["SHELL"], requiredArguments: 0, options: [wordsOption])

  /// The scripts' question (not in help): the account or provider names, one per line.
  static let wordsOption: OptionSpec = {
    var option = OptionSpec.value("words", "accounts|providers", "names for the scripts")
    option.hidden = true
    return option
  }()

  static func run(_ invocation: Invocation, console: Console) async -> ExitCode {
    if let words = invocation.value(wordsOption) {
      return await names(words, invocation.global, console: console)
    }
    let model = CompletionModel(.standard)
    switch invocation.arguments.first {
    case "bash"?: console.out(CompletionScript.bash(model))
    case "zsh"?: console.out(CompletionScript.zsh(model))
    case "fish"?: console.out(CompletionScript.fish(model))
    case let other:
      let error = UsageError(
        message: other.map { "no completion script for '\($0)'" } ?? "'completion' needs SHELL",
        hint: "usage: authtui \(spec.usage)")
      console.err(error.line)
      return .usage
    }
    return .ok
  }

  /// The names `kind` asks for, or nothing (exit 0) when they cannot be had without asking.
  private static func names(_ kind: String, _ global: GlobalOptions, console: Console) async
    -> ExitCode
  {
    switch kind {
    case "providers":
      let catalog = AccountAccess.catalog(global, console: console, reportProblems: false)
      console.out(catalog.entries.map(\.id.description).joined(separator: "\n"))
      return .ok
    case let flows where flows.hasPrefix("flows:"):
      // The flows of the provider `login PROVIDER --flow` names; nothing for an unknown one.
      let text = String(flows.dropFirst("flows:".count))
      guard let id = try? ProviderID(text) else { return .ok }
      let catalog = AccountAccess.catalog(
        global, console: console, reportProblems: false, providers: .only([id]))
      if let entry = catalog.entry(id) {
        console.out(entry.flows.map(\.rawValue).joined(separator: "\n"))
      }
      return .ok
    case "accounts":
      if let answer = await AgentAnswer.ask(
        .list, global, timeout: AgentAnswer.accountsTimeout, \.listing),
        case .success(let listing) = answer
      {
        console.out(listing.accounts.map(\.name).sorted().joined(separator: "\n"))
        return .ok
      }
      // Unlock only from a variable: a completion must never stop to ask.
      guard PassphraseSource.current().origin != .terminal,
        let book = try? await AccountAccess.book(global, console: console),
        let listing = try? await book.listing()
      else { return .ok }
      console.out(listing.accounts.map(\.name).sorted().joined(separator: "\n"))
      return .ok
    default:
      console.err(
        UsageError(
          message: "--words takes accounts, providers or flows:PROVIDER, not '\(kind)'",
          hint: "it is for the completion scripts"
        ).line)
      return .usage
    }
  }
}
