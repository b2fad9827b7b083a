import Foundation
import Loopback

/// A response read by `RawHTTPClient`: Loopback's, split into status, headers and body.
public typealias RawHTTPResponse = LoopbackHTTP.Response

extension LoopbackHTTP.Response {
  /// The body parsed as a JSON object, or nil.
  public var json: [String: Any]? {
    try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
  }
}
