import Foundation
import JSON

/// The optional members of the agent's answers and of the account facts they carry: a value of the member's type, or `null` (or absent)
/// for none. The outer nil is "neither": the answer does not read.
package enum OptionalMember {
  /// A time in seconds since 1970.
  package static func date(_ value: JSONValue?) -> Date?? {
    switch value {
    case .number(let seconds)?:
      return seconds.isFinite ? .some(Date(timeIntervalSince1970: seconds)) : nil
    case .null?, nil: return .some(nil)
    default: return nil
    }
  }

  /// True or false.
  package static func bool(_ value: JSONValue?) -> Bool?? {
    switch value {
    case .bool(let flag)?: return .some(flag)
    case .null?, nil: return .some(nil)
    default: return nil
    }
  }

  /// A string.
  package static func string(_ value: JSONValue?) -> String?? {
    switch value {
    case .string(let text)?: return .some(text)
    case .null?, nil: return .some(nil)
    default: return nil
    }
  }
}
