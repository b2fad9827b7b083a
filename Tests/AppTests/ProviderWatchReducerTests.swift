import Accounts
import App
import Foundation
import Terminal
import Testing

@testable import AuthCore

/// The provider list following the provider files: a look twice a second, one at a time, and the
/// catalog read again taken in place, with the provider choice kept on its provider.
@Suite struct ProviderWatchReducerTests {
  static func watches(in effects: [Effect]) -> [Effect] {
    effects.filter { if case .watchProviders = $0 { true } else { false } }
  }

  @Test func theFilesAreLookedAtTwiceASecondOneLookAtATime() throws {
    var driver = Driver()
    driver.answersUpkeep = false
    let first = try #require(Self.watches(in: driver.advance(0.25)).first)
    #expect(Self.watches(in: driver.advance(0.1)).isEmpty)
    driver.send(.finished(first, .done(nil)))
    // Half a second after the last look started, the next.
    #expect(Self.watches(in: driver.advance(0.3)).isEmpty)
    let second = try #require(Self.watches(in: driver.advance(0.1)).first)
    // None while one is in flight, however long it takes.
    #expect(Self.watches(in: driver.advance(5)).isEmpty)
    driver.send(.finished(second, .done(nil)))
    #expect(Self.watches(in: driver.advance(0.25)).count == 1)
  }

  @Test func aFileAddedElsewhereShowsInTheProviderChoiceWhichStaysOnItsProvider() throws {
    var driver = Driver()
    driver.answersUpkeep = false
    driver.press(.character("a"), .home, .down, .down)
    #expect(driver.text.contains("› Simkl"))
    let watch = try #require(Self.watches(in: driver.advance(1)).first)
    let added = ProviderSummary(id: "corp", name: "Corp SSO", methods: [.pkce])
    driver.send(.finished(watch, .providers([added] + Fixtures.providers)))
    #expect(driver.state.provider("corp") != nil)
    #expect(driver.text.contains("  Corp SSO"))
    #expect(driver.text.contains("› Simkl"))
    guard case .signIn(let signIn)? = driver.state.topPanel else { return }
    #expect(signIn.step == .chooseProvider(selected: 3))
  }

  @Test func aProviderRemovedElsewhereLeavesTheChoiceOnTheRowWhereItWas() throws {
    var driver = Driver()
    driver.answersUpkeep = false
    driver.press(.character("a"), .end)
    let watch = try #require(Self.watches(in: driver.advance(1)).first)
    driver.send(.finished(watch, .providers(Array(Fixtures.providers.dropLast()))))
    // "Other provider…" stays chosen.
    #expect(driver.text.contains("› Other provider…"))
    #expect(!driver.text.contains("Work SSO"))
  }

  @Test func aProviderFileNoticeWaitsForAnErrorOnTheStatusLineAndThenShows() throws {
    var driver = Driver()
    driver.select("bob")
    let refresh = try #require(
      driver.press(.character("r")).first { if case .refresh = $0 { true } else { false } })
    let offline = AccountsError.auth(.transport(.failed("could not connect to the server")))
    driver.send(.finished(refresh, .account(.failure(offline))))
    let error = try #require(driver.state.message)
    #expect(error.kind == .error)
    let notice =
      "left out a provider file that cannot be read: /cfg/providers/corp.json:3: expected a value"
    #expect(driver.send(.response(.news(.warning, notice))) == [.followNews])
    // The error stays while it shows; the notice is not lost but waits for it.
    #expect(driver.state.message == error)
    driver.advance(10)
    #expect(driver.state.message == error)
    driver.advance(6)
    #expect(driver.state.message?.kind == .warning)
    #expect(driver.state.message?.text == notice)
    #expect(driver.text.contains("left out a provider file that cannot be read"))
    // Then it stays until a key, as news does.
    driver.advance(600)
    #expect(driver.state.message?.text == notice)
    driver.press(.character("j"))
    #expect(driver.state.message == nil)
  }
}
