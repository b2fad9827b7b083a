import Foundation

/// What a copy to the clipboard did.
public struct CopyReport: Sendable, Equatable {
  /// What was copied, in words (`the token of simkl/alice`, `the sign-in URL`).
  public var what: String
  /// Where it went besides the terminal (OSC 52): `wl-copy`, `xclip`.
  public var tools: [String]
  /// Seconds after which the clipboard is cleared if it still holds the text; nil for text
  /// that is not secret (a URL, a user code).
  public var clearsAfter: TimeInterval?

  /// Describes a copy.
  public init(what: String, tools: [String] = [], clearsAfter: TimeInterval? = nil) {
    self.what = what
    self.tools = tools
    self.clearsAfter = clearsAfter
  }
}
