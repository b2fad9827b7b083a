import Foundation
import Testing

@testable import Agent

#if canImport(Glibc)
  import Glibc
#endif

/// Who an allowance for 15 minutes covers (`AgentPeer.confirmationScope`): nothing the
/// requester chooses, neither the host a forward claims nor the name a process gives itself.
@Suite struct AgentPeerScopeTests {
  @Test func aForwardIsCoveredAsOneSshSessionWhateverHostItClaims() throws {
    let own = AgentPeer.process(getpid())
    let start = try #require(own.startTime)
    #expect(own.confirmationScope(forwarded: true) == "forwarded:\(getpid()):\(start)")
    // Another process claiming the same host is another session.
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/bin/sleep")
    child.arguments = ["30"]
    try child.run()
    defer { child.terminate() }
    let other = AgentPeer.process(child.processIdentifier)
    #expect(try #require(other.startTime) >= start)
    #expect(other.confirmationScope(forwarded: true) != own.confirmationScope(forwarded: true))
  }

  @Test func aLocalProcessIsCoveredByItsExecutableNotTheNameItGivesItself() {
    let real = AgentPeer(pid: 10, name: "thunderbird", executable: "/usr/bin/thunderbird")
    let namedAlike = AgentPeer(pid: 11, name: "thunderbird", executable: "/tmp/x")
    #expect(real.confirmationScope(forwarded: false) == "executable:/usr/bin/thunderbird")
    #expect(
      namedAlike.confirmationScope(forwarded: false) != real.confirmationScope(forwarded: false))
    // Not dumpable (its executable unreadable): its name is all there is.
    let hardened = AgentPeer(pid: 12, name: "authtui", executable: nil)
    #expect(hardened.confirmationScope(forwarded: false) == "name:authtui")
  }

  @Test func aProcessThatEndedHasNoStartTime() {
    #expect(AgentPeer(pid: Int32.max, name: "gone", executable: nil).startTime == nil)
  }
}
