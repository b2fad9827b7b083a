import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An X server with no screen (`Xvfb`), for the tests that use a real desktop clipboard tool
/// (`xclip`): it picks a free display number itself and says it when it is ready
/// (`-displayfd`). Stopped with `stop()`.
public struct VirtualDisplay: Sendable {
  /// Where Xvfb is, nil when it is not installed (package xvfb; .ci/run installs it).
  public static let xvfb: String? = ["/usr/bin/Xvfb", "/bin/Xvfb"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
  /// Where xclip is, nil when it is not installed (package xclip; .ci/run installs it).
  public static let xclip: String? = ["/usr/bin/xclip", "/bin/xclip"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// The display's name for `DISPLAY` (`:42`).
  public let name: String
  private let server: RunningChild

  /// Starts a server; throws when Xvfb is missing or did not come up within a minute.
  public static func start() async throws -> VirtualDisplay {
    guard let xvfb else { throw WorkspaceError("Xvfb is missing: install xvfb (.ci/run does)") }
    let server = try RunningChild(xvfb, ["-displayfd", "1", "-nolisten", "tcp", "-noreset"])
    guard let number = await server.nextLine(timeout: 60), Int(number) != nil else {
      let errors = await server.standardError()
      await server.kill()
      _ = await server.wait()
      throw WorkspaceError("Xvfb did not start: \(errors)")
    }
    return VirtualDisplay(name: ":" + number, server: server)
  }

  /// What `xclip -selection clipboard -o` prints on this display (nil when it fails).
  public func clipboard() async throws -> String? {
    guard let xclip = Self.xclip else { return nil }
    let result = try await ChildProcess.run(
      xclip, ["-selection", "clipboard", "-o"],
      environment: ChildProcess.environment(["DISPLAY": name]), timeout: 30)
    return result.status == 0 ? result.stdout : nil
  }

  /// Ends the server.
  public func stop() async {
    await server.kill(SIGTERM)
    _ = await server.wait(timeout: 30)
  }
}
