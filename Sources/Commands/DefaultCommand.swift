import Accounts

/// `authtui default ACCOUNT` and `authtui default --clear PROVIDER`: which account a bare
/// `PROVIDER` names when the provider has several.
struct DefaultCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "default",
    summary: "Make ACCOUNT the one its provider's name alone stands for.",
    details: """
      A bare PROVIDER (`authtui token work`) names the provider's only account; when it has
      several, it names the default one this command marks, and is refused otherwise. `list`
      shows the mark. The mark is kept in the vault, so every authtui process and the agent
      see it; signing the account out removes it. --clear PROVIDER removes the mark.
      """,
    arguments: [.required("ACCOUNT", \.target, .account)],
    options: [
      .flag("clear", \.clear, help: "remove PROVIDER's default mark instead of setting one")
    ],
    // The two forms: with --clear, the argument is a provider.
    usage: "default ACCOUNT | --clear PROVIDER")

  var global = GlobalOptions()
  /// The account to mark, or with `--clear` the provider whose mark goes.
  var target = ""
  /// `--clear`.
  var clear = false

  func run(console: Console) async -> ExitCode {
    do throws(CommandFailure) {
      if clear {
        guard !target.contains("/") else {
          throw CommandFailure(
            exitCode: .usage,
            message: "--clear takes a provider, not an account: "
              + "`authtui default --clear \(target.prefix { $0 != "/" })`",
            code: "usage")
        }
        let book = try await AccountAccess.book(global, console: console, providers: .all)
        let previous: String?
        do {
          previous = try await book.clearDefault(provider: target)
        } catch {
          throw AccountAccess.failure(error)
        }
        if let previous {
          console.out("\(target) has no default account now (it was \(previous)).")
        } else {
          console.out("\(target) had no default account; nothing changed.")
        }
        return .ok
      }
      let book = try await AccountAccess.book(
        global, console: console, providers: .account(target))
      let change: DefaultChange
      do {
        change = try await book.makeDefault(named: target)
      } catch {
        throw AccountAccess.failure(error)
      }
      if change.previous == change.account {
        console.out("\(change.account) is already \(change.provider)'s default account.")
      } else {
        let was = change.previous.map { " in place of \($0)" } ?? ""
        console.out(
          "\(change.account) is now \(change.provider)'s default account\(was): "
            + "`authtui token \(change.provider)` gives its token.")
      }
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }
}
