/// The forms that send a request and wait for its answer: the provider setup form, the "Other
/// provider…" form and the rename dialog.
extension Panel {
  /// The request this panel's form waits for, if any.
  var pendingRequest: RequestID? {
    switch self {
    case .providerSetup(let form): return form.pending
    case .otherProvider(let form): return form.pendingRequest
    case .rename(let form): return form.pending
    default: return nil
    }
  }

  /// The form's request failed: it waits no more and says `problem` under its fields, which
  /// keep what was typed.
  mutating func requestFailed(_ problem: String) {
    switch self {
    case .providerSetup(var form):
      form.pending = nil
      form.problem = problem
      self = .providerSetup(form)
    case .otherProvider(var form):
      form.pending = nil
      form.problem = problem
      self = .otherProvider(form)
    case .rename(var form):
      form.pending = nil
      form.problem = problem
      self = .rename(form)
    default:
      break
    }
  }
}
