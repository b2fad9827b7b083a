import Foundation

extension AgentSocketLocation {
  /// The location this environment names.
  package static func resolve(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> AgentSocketLocation {
    resolve(variable: { environment[$0] })
  }
}
