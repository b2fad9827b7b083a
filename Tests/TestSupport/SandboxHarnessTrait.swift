import Testing

/// Gives every test it is attached to (or every test of a suite it is attached to) a fresh
/// `SandboxHarness`, reached as `SandboxHarness.current`, and stops it when the test ends, also
/// when the test throws: the start and the stop each test would otherwise write itself.
public struct SandboxHarnessTrait: SuiteTrait, TestTrait, TestScoping {
  /// Whether Simkl's registration is set to the callback listener's redirect URI first.
  let registersSimklRedirect: Bool

  public var isRecursive: Bool { true }

  /// One harness per test case; none for a suite as a whole.
  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    test.isSuite || testCase == nil ? nil : self
  }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let harness = try await SandboxHarness()
    if registersSimklRedirect {
      await harness.registerSimklRedirect(harness.callback.redirectURI)
    }
    do {
      try await SandboxHarness.$running.withValue(harness) { try await function() }
    } catch {
      await harness.stop()
      throw error
    }
    await harness.stop()
  }
}

extension Trait where Self == SandboxHarnessTrait {
  /// A fresh sandbox harness for each test (`SandboxHarness.current`).
  public static var sandboxHarness: Self { SandboxHarnessTrait(registersSimklRedirect: false) }

  /// A fresh sandbox harness for each test, Simkl's registration being the callback listener's
  /// redirect URI (a Simkl registration fixes the redirect URI).
  public static var sandboxHarnessWithSimklRedirect: Self {
    SandboxHarnessTrait(registersSimklRedirect: true)
  }
}

extension SandboxHarness {
  /// The harness the `.sandboxHarness` trait started for the running test.
  @TaskLocal static var running: SandboxHarness?

  /// The running test's harness; only a test with the `.sandboxHarness` trait has one.
  public static var current: SandboxHarness {
    guard let running else {
      preconditionFailure("SandboxHarness.current needs the .sandboxHarness trait on the test")
    }
    return running
  }
}
