import AuthCore
import JSON

/// A failure the sandbox imitates for the next `count` requests whose path starts with
/// `pathPrefix` (`POST /_sandbox/fault`). Hooks under `/_sandbox/` are never affected.
public struct SandboxFault: Sendable, Equatable {
  /// What goes wrong.
  public enum Kind: Sendable, Equatable {
    /// `500 Internal Server Error` with an HTML body; the request is not processed.
    case status500
    /// The answer comes after `milliseconds`; the request is then processed normally.
    case delay(milliseconds: Int)
    /// The answer waits until `POST /_sandbox/release` (at most ten minutes); the request is
    /// then processed normally: a provider that takes as long as a test needs, whatever the
    /// machine's load.
    case hold
    /// `200` with `Content-Type: application/json` and a body that is not JSON; not processed.
    case garbage
    /// The connection is closed without an answer; the request is not processed.
    case drop
    /// The request IS processed (a code is consumed, a token issued), then the connection is
    /// closed without an answer: a network failure after the request reached the provider.
    case dropAfterProcessing
    /// `status` with `Content-Type: application/json` and `body` as given; not processed: a
    /// provider answering what a test needs (an `expires_in` of 1e300, an
    /// `error_description` holding an escape sequence).
    case answer(status: Int, body: String)

    /// The `kind` name used by the hook.
    public var name: String {
      switch self {
      case .status500: return "status500"
      case .delay: return "delay"
      case .hold: return "hold"
      case .garbage: return "garbage"
      case .drop: return "drop"
      case .dropAfterProcessing: return "drop_after"
      case .answer: return "answer"
      }
    }
  }

  /// Requests whose path (without the query) starts with this are affected.
  public var pathPrefix: String
  /// The failure.
  public var kind: Kind
  /// How many requests it still affects.
  public var count: Int

  /// A fault for the next `count` requests under `pathPrefix`.
  public init(pathPrefix: String, kind: Kind, count: Int = 1) {
    self.pathPrefix = pathPrefix
    self.kind = kind
    self.count = count
  }

  var json: OrderedJSON {
    var members: [(String, OrderedJSON)] = [
      ("path", .string(pathPrefix)), ("kind", .string(kind.name)), ("count", .int(count)),
    ]
    switch kind {
    case .delay(let milliseconds):
      members.append(("delay_ms", .int(milliseconds)))
    case .answer(let status, let body):
      members += [("status", .int(status)), ("body", .string(body))]
    default:
      break
    }
    return .object(members)
  }
}

/// The faults waiting to fire, first injected first used.
struct FaultPlan: Sendable {
  private(set) var pending: [SandboxFault] = []

  mutating func add(_ fault: SandboxFault) {
    if fault.count > 0 { pending.append(fault) }
  }

  /// Takes one use of the first fault matching `path`.
  mutating func take(for path: String) -> SandboxFault.Kind? {
    guard let index = pending.firstIndex(where: { path.hasPrefix($0.pathPrefix) }) else {
      return nil
    }
    let kind = pending[index].kind
    pending[index].count -= 1
    if pending[index].count <= 0 { pending.remove(at: index) }
    return kind
  }

  mutating func clear() { pending.removeAll() }
}
