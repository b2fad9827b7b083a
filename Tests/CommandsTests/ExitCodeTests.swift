import Accounts
import Agent
import AuthCore
import System
import Vault
import XCTest

@testable import Commands

/// The contract of DESIGN.md "Exit codes" and docs/configuration.md: 0 ok, 1 error, 2 usage, 3 vault
/// locked or wrong passphrase, 4 no such account or provider, 5 sign-in needed, 6 cancelled,
/// denied or timed out, 7 provider or network error.
final class ExitCodeTests: XCTestCase {
  func testStatusesAreTheContractsNumbers() {
    let statuses: [(ExitCode, Int32, String)] = [
      (.ok, 0, "ok"), (.failure, 1, "error"), (.usage, 2, "usage"),
      (.vaultLocked, 3, "vault_locked"), (.notFound, 4, "not_found"),
      (.signInNeeded, 5, "sign_in_needed"), (.cancelled, 6, "cancelled"),
      (.providerError, 7, "provider_error"),
    ]
    for (code, number, name) in statuses {
      XCTAssertEqual(code.rawValue, number)
      XCTAssertEqual(code.name, name)
    }
  }

  func testAccountFailuresMapToTheirStatuses() throws {
    let simkl = ProviderID("simkl")
    let cases: [(AccountsError, ExitCode)] = [
      (.malformedAccountName("a/b/c"), .usage),
      (.invalidLabel("#7", problem: .leadingHash), .usage),
      (.flowNotOffered(provider: simkl, flow: .device, offered: [.pkce, .pin]), .usage),
      (.noSuchAccount("simkl/x", suggestions: []), .notFound),
      (.noAccountYet("simkl/x", provider: simkl, label: "x"), .notFound),
      (.noSuchProvider("nope", suggestions: []), .notFound),
      (.signInNeeded(AccountName(provider: simkl, label: "a"), reason: .noToken), .signInNeeded),
      (.auth(.cancelled), .cancelled),
      (.auth(.accessDenied(description: nil)), .cancelled),
      (.auth(.refreshTokenRejected(description: nil)), .signInNeeded),
      (.auth(.missingEndpoint("token_endpoint", provider: "simkl")), .failure),
      (.vault(.wrongPassphrase(path: "/v.db")), .vaultLocked),
      (.vault(.accountNotFound(AccountID(3))), .notFound),
    ]
    for (error, code) in cases {
      XCTAssertEqual(ExitCode(error), code, "\(error)")
    }
  }

  func testAccountFailureKeepsItsMessageAndCode() {
    let failure = AccountAccess.failure(.auth(.cancelled))
    XCTAssertEqual(failure.exitCode, .cancelled)
    XCTAssertEqual(failure.code, "cancelled")
  }

  func testVaultFailuresNameWhereThePassphraseCameFrom() {
    let failure = VaultAccess.failure(
      .wrongPassphrase(path: "/v.db"), passphraseFrom: .variable("AUTHTUI_PASSPHRASE"))
    XCTAssertEqual(failure.exitCode, .vaultLocked)
    XCTAssertTrue(
      failure.message.hasPrefix(
        "the passphrase from AUTHTUI_PASSPHRASE does not open the vault /v.db (nothing was changed)"
      ))
  }

  func testPassphraseProblemsLockTheVaultUnlessCancelled() {
    XCTAssertEqual(ExitCode(.cancelled as PassphraseError), .cancelled)
    XCTAssertEqual(ExitCode(.mismatch as PassphraseError), .vaultLocked)
    XCTAssertEqual(ExitCode(.noTerminal(variable: "X") as PassphraseError), .vaultLocked)
  }

  func testAgentAnswersCarryTheStatusTokenWouldExitWith() {
    XCTAssertEqual(
      CommandFailure.answering(.badRequest("why")),
      CommandFailure(exitStatus: 2, code: "bad_request", message: "why"))
    XCTAssertEqual(CommandFailure.answering(.otherVault(served: "/a", asked: "/b")).exitStatus, 1)
    XCTAssertEqual(
      CommandFailure.answering(.account(.auth(.refreshTokenRejected(description: nil)))).exitStatus,
      5)
    XCTAssertEqual(
      CommandFailure(exitStatus: 99, code: "odd", message: "m").exitCode, .failure)
  }
}
