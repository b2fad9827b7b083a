import Terminal
import Testing

@testable import App

/// Issue 28: a copy says what was done: sent to the terminal (OSC 52), copied with a desktop
/// tool, or, inside a tmux that drops OSC 52, that it went nowhere and how to let it through.
@Suite struct CopyReportTests {
  static let token = "the token of work/bob"

  @Test func theRouteFollowsTmuxsSetting() {
    #expect(CopyReport.route(sent: true, tmuxSetClipboard: nil) == .sent)
    #expect(CopyReport.route(sent: true, tmuxSetClipboard: "on") == .sentThroughTmux)
    #expect(
      CopyReport.route(sent: true, tmuxSetClipboard: "external")
        == .droppedByTmux(setting: "external"))
    #expect(CopyReport.route(sent: true, tmuxSetClipboard: "off") == .droppedByTmux(setting: "off"))
    #expect(CopyReport.route(sent: false, tmuxSetClipboard: "on") == .notSent)
  }

  @Test func sentToTheTerminalAndCopiedWithAToolAreToldApart() {
    let terminal = CopyReport(what: Self.token, clearsAfter: 45)
    #expect(terminal.reachedAClipboard)
    #expect(
      terminal.sentence
        == "sent the token of work/bob to the terminal (OSC 52); the clipboard is cleared in 45 s")
    let both = CopyReport(what: Self.token, tools: ["wl-copy"], clearsAfter: 45)
    #expect(
      both.sentence
        == "copied the token of work/bob with wl-copy and sent it to the terminal (OSC 52); "
        + "the clipboard is cleared in 45 s")
    let tool = CopyReport(what: "the sign-in URL", tools: ["xclip"], terminal: .notSent)
    #expect(tool.reachedAClipboard)
    #expect(tool.sentence == "copied the sign-in URL with xclip")
    let tmux = CopyReport(what: "the code", terminal: .sentThroughTmux)
    #expect(tmux.sentence == "sent the code to the terminal through tmux (OSC 52)")
  }

  /// A desktop tool that did not take the text (a stale display) is named with why, beside
  /// what did happen: the terminal's copy still counts, and without one nothing was copied.
  @Test func aToolThatFailedIsNamedWithWhy() {
    let failure = "xclip could not copy it (it exited with status 1; is DISPLAY=:1 still there?)"
    let terminal = CopyReport(what: Self.token, clearsAfter: 45, toolFailure: failure)
    #expect(terminal.reachedAClipboard)
    #expect(
      terminal.sentence
        == "sent the token of work/bob to the terminal (OSC 52); \(failure); the clipboard is "
        + "cleared in 45 s")
    let nowhere = CopyReport(what: Self.token, terminal: .notSent, toolFailure: failure)
    #expect(!nowhere.reachedAClipboard)
    #expect(nowhere.sentence == "the token of work/bob was not copied: \(failure)")
    let dropped = CopyReport(
      what: Self.token, terminal: .droppedByTmux(setting: "off"), toolFailure: failure)
    #expect(!dropped.reachedAClipboard)
    #expect(dropped.sentence.hasSuffix("lets it through; \(failure)"))
  }

  @Test func aTmuxThatDropsOSC52IsSaidWithTheSettingThatLetsItThrough() {
    let dropped = CopyReport(
      what: Self.token, clearsAfter: 45, terminal: .droppedByTmux(setting: "external"))
    #expect(!dropped.reachedAClipboard)
    #expect(
      dropped.sentence
        == "the token of work/bob was not copied: tmux drops the terminal's copy (OSC 52) while "
        + "its set-clipboard is external: `set -g set-clipboard on` in ~/.tmux.conf lets it "
        + "through")
    let withTool = CopyReport(
      what: Self.token, tools: ["xclip"], clearsAfter: 45, terminal: .droppedByTmux(setting: "off"))
    #expect(withTool.reachedAClipboard)
    #expect(
      withTool.sentence
        == "copied the token of work/bob with xclip; tmux drops the terminal's copy (OSC 52) "
        + "while its set-clipboard is off: `set -g set-clipboard on` in ~/.tmux.conf lets it "
        + "through; the clipboard is cleared in 45 s")
    let nowhere = CopyReport(what: Self.token, terminal: .notSent)
    #expect(!nowhere.reachedAClipboard)
    #expect(
      nowhere.sentence
        == "the token of work/bob was not copied: no terminal and no wl-copy or xclip with a "
        + "display")
  }

  @Test func theStatusLineWarnsWhenTmuxDroppedTheCopy() {
    var driver = Driver()
    guard let id = driver.copyBobsToken() else { return }
    let report = CopyReport(
      what: Self.token, clearsAfter: 45, terminal: .droppedByTmux(setting: "external"))
    driver.finish(id, .copied(.success(report)))
    #expect(driver.state.message?.kind == .warning)
    #expect(driver.state.message?.text == report.sentence)
  }
}
