import Accounts

/// `authtui default ACCOUNT` and `authtui default --clear PROVIDER`: which account a bare
/// `PROVIDER` names when the provider has several.
enum DefaultCommand {
  static let spec = CommandSpec(
    name: "default", usage: "default ACCOUNT | --clear PROVIDER",
    summary: "Make ACCOUNT the one its provider's name alone stands for.",
    details: """
      A bare PROVIDER (`authtui token work`) names the provider's only account; when it has
      several, it names the default one this command marks, and is refused otherwise. `list`
      shows the mark. The mark is kept in the vault, so every authtui process and the agent
      see it; signing the account out removes it. --clear PROVIDER removes the mark.
      """,
    arguments: ["ACCOUNT"], requiredArguments: 1, options: [clearFlag])

  static let clearFlag = OptionSpec.flag(
    "clear", "remove PROVIDER's default mark instead of setting one")

  static func run(_ invocation: Invocation, console: Console) async -> ExitCode {
    let target = invocation.arguments[0]
    do throws(CommandFailure) {
      if invocation.flag(clearFlag) {
        guard !target.contains("/") else {
          throw CommandFailure(
            exitCode: .usage,
            message: "--clear takes a provider, not an account: "
              + "`authtui default --clear \(target.prefix { $0 != "/" })`",
            code: "usage")
        }
        let book = try await AccountAccess.book(invocation.global, console: console)
        do {
          if let previous = try await book.clearDefault(provider: target) {
            console.out("\(target) has no default account now (it was \(previous)).")
          } else {
            console.out("\(target) had no default account; nothing changed.")
          }
        } catch {
          throw AccountAccess.failure(error)
        }
        return .ok
      }
      let book = try await AccountAccess.book(
        invocation.global, console: console, providers: .account(target))
      let change: DefaultChange
      do {
        change = try await book.makeDefault(named: target)
      } catch {
        throw AccountAccess.failure(error)
      }
      let provider = String(change.account.prefix { $0 != "/" })
      if change.unchanged {
        console.out("\(change.account) is already \(provider)'s default account.")
      } else {
        let was = change.previous.map { " in place of \($0)" } ?? ""
        console.out(
          "\(change.account) is now \(provider)'s default account\(was): "
            + "`authtui token \(provider)` gives its token.")
      }
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }
}
