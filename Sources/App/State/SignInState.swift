import Accounts
import AuthCore
import Foundation

/// The sign-in screens: choose a provider, choose a flow, then the attempt itself.
public struct SignInState: Sendable, Equatable {
  /// Where the sign-in stands.
  public enum Step: Sendable, Equatable {
    /// Choosing a provider; the index into the provider list.
    case chooseProvider(selected: Int)
    /// Choosing a flow of `provider`; the index into its methods.
    case chooseMethod(provider: ProviderSummary, selected: Int)
    /// An attempt runs (or has ended without an account).
    case attempt(SignInAttemptState)
  }

  /// Where the sign-in stands.
  public var step: Step
  /// The label the account is stored under; nil for the provider's name for the user. A
  /// sign-in again starts with the account's own.
  public var label: String?
  /// The label field, while it is open.
  public var labelField: TextField?
  /// What the demo's approver answers (`authtui demo` with no browser only).
  public var demoChoice = DemoAnswer.Choice.approve

  /// A sign-in at its first step.
  public init(step: Step = .chooseProvider(selected: 0), label: String? = nil) {
    self.step = step
    self.label = label
  }
}

/// One sign-in attempt as the flow screen shows it.
public struct SignInAttemptState: Sendable, Equatable {
  /// The attempt's request; results for any other id are stale and dropped.
  public var id: RequestID
  /// The provider signed in to.
  public var provider: ProviderSummary
  /// The flow.
  public var method: SignInFlow
  /// What the demo's approver answers this attempt's page; nil outside the demo.
  public var demoAnswer: DemoAnswer?
  /// When the demo's approver answers the page it was handed (its pause from the moment it
  /// got it); nil until it has the page, and outside the demo.
  public var demoAnswersAt: Date?
  /// When the attempt started (the countdown bar's full length runs from here).
  public var startedAt: Date
  /// The latest report from the environment; nil while the attempt is being set up (listener,
  /// device authorization request, discovery).
  public var progress: SignInProgress?
  /// Set once the attempt ended without an account: what the screen says, with a retry key.
  public var failure: AccountsError?
  /// The pasted-redirect field, while it is open.
  public var paste: TextField?
  /// True once the browser was opened for this attempt (it is opened once by itself).
  public var browserOpened = false
  /// What happened when the browser was asked to open, when it could not.
  public var browserProblem: String?

  /// A fresh attempt.
  public init(id: RequestID, provider: ProviderSummary, method: SignInFlow, startedAt: Date) {
    self.id = id
    self.provider = provider
    self.method = method
    self.startedAt = startedAt
  }

  /// True while the attempt may still produce an account.
  public var isRunning: Bool { failure == nil }
}
