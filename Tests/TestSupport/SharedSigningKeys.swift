import Crypto
import Foundation
import Isolation
import Sandbox

/// One RS256 and one ES256 signing key for every in-process sandbox of the test run: making
/// an RSA key is the costliest thing a sandbox does, and one per test would load two cores for
/// seconds. (Should making them fail, each sandbox makes its own, as it would in production.)
///
/// They are made once, on a thread of their own, and awaited. A `static let` made them in its
/// initializer instead, on whichever pool thread asked first, while every other thread that
/// asked blocked in the runtime's once-lock: a stack dump under load showed both threads of
/// the two-thread cooperative pool there (one generating, one waiting), with every other
/// test's tasks stalled for as long as a loaded machine takes to make an RSA key.
public enum SharedSigningKeys {
  private static let made = Task<[SigningKey], Never> {
    await onOwnThread { (try? SandboxConfiguration.freshSigningKeys()) ?? [] }
  }

  /// The keys; the first caller's wait is the only one that makes them.
  public static func keys() async -> [SigningKey] {
    await made.value
  }
}
