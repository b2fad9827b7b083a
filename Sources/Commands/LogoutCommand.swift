import Accounts
import Agent
import AuthCore
import Foundation
import System

/// `authtui logout ACCOUNT [--local-only] [--no-browser]`: revoke at the provider, then forget
/// the account here.
struct LogoutCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "logout",
    summary: "Sign ACCOUNT out: revoke its tokens at the provider, then delete it here.",
    details: """
      The refresh token is revoked first, then the access token (RFC 7009), where the provider
      can. The account is deleted from the vault in every case; when revocation fails the exit
      status is 7 and the message says the tokens may still work at the provider until they
      expire. Before anything is revoked the account is marked "sign-in needed" with its tokens
      cleared, so a vault that then cannot delete it (a full disk) never hands out a revoked
      token: logout exits 1 and names the `logout --local-only` that removes it later.
      A provider with an end_session_endpoint also gets its sign-out page opened (like
      login's page; printed on a terminal with --no-browser), so the browser session ends
      too. The browser is given a one-time address on 127.0.0.1 that leads to that page once
      (the page's URL carries your id_token, which other users could read in a program's
      arguments); logout says that it waits, and waits until it was opened: 10 seconds for a
      browser, 2 minutes for a printed address (Ctrl-C skips). When the provider file
      registers a return address authtui can serve (post_logout_redirect_uri on 127.0.0.1, or
      post_logout_uses_redirect_uri), the provider sends the browser back to a page authtui
      shows, checked by a fresh state, and logout waits up to 2 more minutes for it.
      `authtui logout '#N' --local-only` removes a damaged account that `list` reports by id
      (PROVIDER/LABEL works too while its name still reads); without --local-only a damaged
      account is refused, since its tokens cannot be read to revoke them.
      When `authtui agent` runs for this vault, the agent signs the account out (revocation
      and deletion happen there) and no passphrase is needed; the sign-out page still opens
      from here. AUTHTUI_NO_AGENT=1 skips it.
      """,
    arguments: [.required("ACCOUNT", \.account, .account)],
    options: [
      .flag(
        "local-only", \.localOnly, help: "delete the account here without telling the provider"),
      .flag(
        "no-browser", \.noBrowser,
        help: "print a one-time sign-out address instead of opening it"),
    ])

  var global = GlobalOptions()
  /// The account's name as given (`#ID` for a damaged one).
  var account = ""
  /// `--local-only`.
  var localOnly = false
  /// `--no-browser`.
  var noBrowser = false

  func run(console: Console) async -> ExitCode {
    do throws(CommandFailure) {
      let outcome = try await signOut(console: console)
      let name = outcome.account
      let place = Revocation.accessSettingsPlace(outcome.accessSettingsURL)
      if outcome.damaged {
        console.out(
          "Removed \(name) from this vault. Its tokens could not be read, so they were not "
            + "revoked: withdraw authtui's access " + place + ".")
        return .ok
      }
      if let url = outcome.endSessionURL {
        let browser = noBrowser ? nil : BrowserLauncher.available()
        await SignOutPage.show(url, account: name, browser: browser, console: console)
      }
      switch outcome.revocation {
      case .revoked:
        console.out(
          "Signed out of \(name): the provider revoked its tokens, and it was removed here.")
      case .unsupported where outcome.endSessionURL != nil:
        // Said plainly: the sign-out page ends the browser session, not the tokens.
        console.out(
          "Removed \(name) from this vault. This provider cannot revoke tokens: its sign-out page "
            + "ends your browser session only, and tokens already issued stay valid until they "
            + "expire; to end them now, withdraw authtui's access " + place + ".")
      case .unsupported:
        console.out(
          "Removed \(name). This provider cannot revoke tokens from here: withdraw authtui's access "
            + place + ".")
      case .skipped:
        console.out("Removed \(name) from this vault (the provider was not contacted).")
      case .providerMissing:
        console.out(
          "Removed \(name). Its provider is not configured any more, so its tokens were not revoked."
        )
      case .failed(let code, let message):
        console.out("Removed \(name) from this vault.")
        throw CommandFailure(
          exitCode: .providerError,
          message: "the provider did not revoke \(name)'s tokens (\(message)) They may keep "
            + "working until they expire; withdraw access " + place + ".",
          code: code)
      }
      return .ok
    } catch {
      console.err(error.line)
      return error.exitCode
    }
  }

  /// Signs the account out through the agent for this vault when one runs, else over the
  /// vault unlocked here. A request the agent got but did not answer is not made again: the
  /// agent may have revoked and deleted the account already.
  func signOut(console: Console) async throws(CommandFailure) -> AgentSignOut {
    let unanswered = CommandFailure(
      exitCode: .failure,
      message: "the agent got the sign-out of \(account) but gave no answer, so it may "
        + "be done or not; see `authtui list`, and run `authtui logout` again if it is still "
        + "there",
      code: "agent_no_answer")
    if let answer = await AgentAnswer.ask(
      .logout(account: account, localOnly: localOnly), global,
      timeout: AgentAnswer.signOutTimeout, unanswered: unanswered, \.signedOut)
    {
      return try answer.get()
    }
    // Revoked at the provider but kept here would be a sign-out half done.
    try VaultAccess.requireWritable(VaultAccess.location(global))
    let book = try await AccountAccess.book(
      global, console: console, providers: .account(account))
    do {
      return try await book.signOut(named: account, localOnly: localOnly)
    } catch {
      throw AccountAccess.failure(error)
    }
  }
}
