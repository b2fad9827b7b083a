import Foundation

/// Polls `condition` until it holds; fails after `timeout` seconds (which only matters when
/// something is broken).
public func waitUntil(
  _ what: String, timeout: TimeInterval = 60, _ condition: () async -> Bool
) async throws {
  let deadline = Date().addingTimeInterval(timeout)
  while !(await condition()) {
    guard Date() < deadline else { throw WorkspaceError("timed out waiting until \(what)") }
    try await Task.sleep(for: .milliseconds(50))
  }
}
