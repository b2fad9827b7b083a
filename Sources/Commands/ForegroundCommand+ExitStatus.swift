import Foundation
import System

extension ForegroundCommand {
  /// Runs `program` (found as `name`) in the foreground, as `exec` and `ssh` hand over to
  /// another program, and gives its exit status as a shell would: its own, 128 + N when signal
  /// N ended it, and 127 (not found) or 126 with a line on standard error when it could not be
  /// started.
  static func exitStatus(
    of program: String, name: String, arguments: [String], environment: [String: String],
    passing descriptors: [Int32] = [], console: Console
  ) async -> Int32 {
    do throws(SpawnError) {
      let termination = try await run(
        program, name: name, arguments: arguments, environment: environment,
        passing: descriptors)
      switch termination {
      case .exited(let status): return status
      case .signalled(let number): return 128 + number
      }
    } catch {
      console.err("authtui: \(program): cannot be started (\(error.reason))")
      return error.code == ENOENT ? 127 : 126
    }
  }
}
