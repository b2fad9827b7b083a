/// What the demo's approver does with a sign-in's page, as chosen on the sign-in screens
/// (`authtui demo` without a browser plays the person at the browser itself).
public enum DemoAnswer: Sendable, Equatable {
  /// Approves, as the user `name` (the sign-in's label when it has one; nil: the approver's
  /// own name).
  case approve(as: String?)
  /// Presses the page's "no": the provider declines the sign-in.
  case deny
  /// Looks at the page and closes it: a silent denial, which only the countdown ends.
  case ignore

  /// The three answers in the order `m` goes through them.
  public enum Choice: Sendable, Equatable, CaseIterable {
    case approve, deny, ignore

    /// The next one, after the last the first.
    var next: Choice {
      let all = Self.allCases
      return all[((all.firstIndex(of: self) ?? 0) + 1) % all.count]
    }
  }

  /// The answer `choice` gives for a sign-in stored under `label`.
  public init(_ choice: Choice, label: String?) {
    switch choice {
    case .approve: self = .approve(as: label)
    case .deny: self = .deny
    case .ignore: self = .ignore
    }
  }
}
