import AuthCore
import Foundation
import TestSupport
import Testing

/// The discovery of an issuer (its OpenID document, then RFC 8414's two places) keeps to one
/// deadline, the one its timeout message states: each request used to get the whole of it, so
/// a server that never answered held `providers add` and `providers show` for 60 s while they
/// said "did not answer within 30 seconds". Time is a `ManualClock`: a request the server does
/// not answer takes its whole timeout off the clock, and nothing waits.
@Suite struct DiscoveryDeadlineTests {
  /// A server at `issuer` whose answers take `delays[path]` seconds of the clock each (a path
  /// without a delay answers 404 at once); one that would take longer than the request's
  /// timeout times out when the timeout is up.
  actor SlowServer: Transport {
    struct Sent: Equatable {
      let path: String
      let at: TimeInterval
      let timeout: TimeInterval
    }

    let clock: ManualClock
    let start: Date
    let delays: [String: TimeInterval]
    private(set) var sent: [Sent] = []

    init(clock: ManualClock, start: Date, delays: [String: TimeInterval]) {
      self.clock = clock
      self.start = start
      self.delays = delays
    }

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
      let now = await clock.now()
      sent.append(
        Sent(
          path: request.url.path, at: now.timeIntervalSince(start), timeout: request.timeout))
      guard let delay = delays[request.url.path] else { return TransportResponse(status: 404) }
      let answered = now.addingTimeInterval(min(delay, request.timeout))
      // Two requests in flight at once end at the later of their ends, not one after the other.
      if await clock.now() < answered { await clock.advance(to: answered) }
      if delay > request.timeout { throw .timedOut(seconds: request.timeout) }
      return TransportResponse(status: 404)
    }
  }

  static let issuer = "https://id.example.com/realm"
  static let openID = "/realm/.well-known/openid-configuration"
  static let inserted = "/.well-known/oauth-authorization-server/realm"
  static let appended = "/realm/.well-known/oauth-authorization-server"

  func discover(_ delays: [String: TimeInterval]) async -> (AuthError?, [SlowServer.Sent]) {
    let clock = ManualClock()
    let server = SlowServer(clock: clock, start: await clock.now(), delays: delays)
    var failure: AuthError?
    do throws(AuthError) {
      _ = try await OIDCProvider.discover(
        issuer: Self.issuer, transport: server, clock: clock, requestTimeout: 30)
    } catch {
      failure = error
    }
    return (failure, await server.sent)
  }

  @Test func aServerThatNeverAnswersTimesOutOnceWithinTheDeadlineItStates() async {
    let (error, sent) = await discover([Self.openID: 1000, Self.inserted: 1000])
    #expect(error == .transport(.timedOut(seconds: 30)))
    #expect(
      error?.message
        == "The provider did not answer within 30 seconds; check your network connection and "
        + "try again.")
    // Every request ends by the one deadline; the last place is not asked once it has passed.
    #expect(sent.allSatisfy { $0.at + $0.timeout <= 30 }, "\(sent)")
    #expect(!sent.contains { $0.path == Self.appended }, "\(sent)")
  }

  @Test func theLastPlaceToLookGetsWhatIsLeftOfTheDeadline() async {
    // No OpenID document; the RFC 8414 path-insertion form answers 404 after 20 s, so the
    // suffix form has 10 s left, and its timeout is said as the whole discovery's 30.
    let (error, sent) = await discover([Self.inserted: 20, Self.appended: 1000])
    #expect(error == .transport(.timedOut(seconds: 30)))
    #expect(
      sent.first { $0.path == Self.appended } == .init(path: Self.appended, at: 20, timeout: 10))
    #expect(sent.allSatisfy { $0.at + $0.timeout <= 30 }, "\(sent)")
  }
}
