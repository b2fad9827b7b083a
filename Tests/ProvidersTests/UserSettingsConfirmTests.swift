import Testing

@testable import Providers

/// `"agent": {"confirm": {ACCOUNT: MODE}}` in config.json: each account's confirmation mode,
/// and each wrong entry reported with its line while the others are kept.
@Suite struct UserSettingsConfirmTests {
  @Test func eachAccountsModeIsReadAndAWrongEntryIsReportedAlone() {
    let (settings, problems) = UserSettings.parse(
      """
      {"agent": {"confirm": {
        "github/alice": "always",
        "work/bob": "forwarded",
        "sandbox": "always",
        "simkl/carol": "sometimes",
        "gitlab/dave": true}}}
      """, file: "config.json")
    #expect(settings.agentConfirm == ["github/alice": "always", "work/bob": "forwarded"])
    #expect(
      problems.map(\.description) == [
        "config.json:4: agent.confirm.sandbox: is not an account; name it as PROVIDER/LABEL",
        "config.json:5: agent.confirm.simkl/carol: must be \"forwarded\" or \"always\", not "
          + "\"sometimes\"",
        "config.json:6: agent.confirm.gitlab/dave: must be a string, not true or false",
      ])
  }

  @Test func noConfirmFieldHoldsNothing() {
    let (settings, problems) = UserSettings.parse(#"{"agent": {}}"#, file: "config.json")
    #expect(settings.agentConfirm.isEmpty)
    #expect(problems.isEmpty)
  }
}
