import AgentProtocol
import Foundation
import Isolation

/// How the full program asks a running agent, when there is one for its vault: the blocking
/// exchange of `AgentConnection`, on a thread of its own rather than the cooperative pool.
package enum AgentClient {
  /// True unless `AUTHTUI_NO_AGENT` is set (to anything but `0`).
  package static func enabled(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> Bool
  {
    AgentConnection.enabled(variable: { environment[$0] })
  }

  /// The agent's answer to `request`, or nil when there is no usable agent (or it declined).
  package static func ask(
    _ request: AgentRequest, at location: AgentSocketLocation, timeout: TimeInterval
  ) async -> AgentResponse? {
    guard case .answered(let response) = await exchange(request, at: location, timeout: timeout)
    else { return nil }
    return response
  }

  /// Sends `request` to the agent at `location` and says what became of it; a caller whose
  /// request must not run twice (`logout`) tells `unanswered` from `noAgent`.
  package static func exchange(
    _ request: AgentRequest, at location: AgentSocketLocation, timeout: TimeInterval
  ) async -> AgentConnection.Exchange<AgentResponse> {
    // Most calls find no socket: answer that without starting a thread.
    guard location.exists else { return .noAgent }
    return await onOwnThread { AgentConnection.exchange(request, at: location, timeout: timeout) }
  }

  /// `AgentConnection.exchangeNamingPeer` on a thread of its own.
  package static func exchangeNamingPeer(
    _ request: AgentRequest, at location: AgentSocketLocation, timeout: TimeInterval
  ) async -> (response: AgentResponse, pid: pid_t?)? {
    guard location.exists else { return nil }
    return await onOwnThread {
      AgentConnection.exchangeNamingPeer(request, at: location, timeout: timeout)
    }
  }
}
