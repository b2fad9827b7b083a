/// The host name a forwarded request says it comes from (`host`): what the agent shows in its
/// confirmation question and its log, quoted, as the remote side says it. It is held to the
/// bytes of a host name, so that it cannot carry a quote, a space or a sentence of its own
/// into the question a person answers.
package enum ForwardedHost {
  /// The longest `host` accepted, in bytes (a DNS name is at most 253).
  package static let maximumBytes = 255

  /// True for a byte a host name holds: an ASCII letter or digit, `.`, `-` or `_`.
  package static func isHostNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"),
      UInt8(ascii: "_"):
      return true
    default:
      return false
    }
  }

  /// True when `text` is a host name `host` may carry: 1 to `maximumBytes` bytes, each one a
  /// host name holds.
  package static func isValid(_ text: String) -> Bool {
    (1...maximumBytes).contains(text.utf8.count) && text.utf8.allSatisfy(isHostNameByte)
  }
}
