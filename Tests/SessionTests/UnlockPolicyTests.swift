import App
import Session
import Testing

/// The first step into the vault at start.
@Suite struct UnlockPolicyTests {
  @Test func aMissingVaultIsCreatedWithTheKnownPassphraseOrAskedFor() {
    #expect(
      UnlockPolicy.firstStep(
        vaultExists: false, known: SecretText("demo"), sourceOutsideTerminal: true)
        == .create(SecretText("demo")))
    #expect(
      UnlockPolicy.firstStep(vaultExists: false, known: nil, sourceOutsideTerminal: true)
        == .askToCreate)
  }

  @Test func aKnownPassphraseUnlocksBeforeAnyVariableIsRead() {
    #expect(
      UnlockPolicy.firstStep(
        vaultExists: true, known: SecretText("demo"), sourceOutsideTerminal: true)
        == .unlock(SecretText("demo")))
  }

  @Test func aVariableFileOrCommandUnlocksOtherwiseAndTheTerminalIsTheUnlockScreens() {
    #expect(
      UnlockPolicy.firstStep(vaultExists: true, known: nil, sourceOutsideTerminal: true)
        == .unlockFromSource)
    #expect(
      UnlockPolicy.firstStep(vaultExists: true, known: nil, sourceOutsideTerminal: false) == .ask)
  }
}
