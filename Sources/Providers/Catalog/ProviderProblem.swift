import JSON

/// Something wrong with a provider file or a provider, located and with its fix.
///
/// Printed as `providers/work.json:7: token_endpoint: must use https … ; <fix>`, the way
/// compilers report errors, so an editor can jump to it.
public struct ProviderProblem: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file, as the user knows it (`~/.config/authtui/providers/work.json`), or
  /// `built-in preset simkl`.
  public let file: String
  /// Where in the file, when the problem has a place.
  public let position: SourcePosition?
  /// The field, by its JSON name, when one field is at fault.
  public let field: String?
  /// What is wrong and how to fix it, in one or two sentences.
  public let message: String

  public init(file: String, position: SourcePosition?, field: String?, message: String) {
    self.file = file
    self.position = position
    self.field = field
    self.message = message
  }

  public var description: String {
    var text = file
    if let position { text += ":\(position.line)" }
    text += ": "
    if let field { text += "\(field): " }
    return text + message
  }
}
