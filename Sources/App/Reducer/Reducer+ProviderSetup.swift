import AuthCore
import Foundation
import Providers

extension AppState {
  /// Opens the setup form of `provider`, which has no client id yet, over the provider choice.
  mutating func openProviderSetup(_ provider: ProviderSummary, setup: ProviderSetup) -> [Effect] {
    panels.append(.providerSetup(ProviderSetupForm(provider: provider, setup: setup)))
    return []
  }

  mutating func performProviderSetup(_ command: Command, now: Date) -> [Effect] {
    guard case .providerSetup(let form) = topPanel else { return [] }
    switch command {
    case .back:
      // A save in flight still finishes; the provider list then shows the provider ready.
      panels.removeLast()
    case .nextField, .previousField:
      let next = form.fields.cycling(from: form.focus, by: command == .nextField ? 1 : -1)
      updateProviderSetup { $0.focus = next }
    case .confirm:
      guard form.pending == nil else { return [] }
      return submitProviderSetup(form)
    default:
      break
    }
    return []
  }

  /// Checks the form as the file write would, so a typing mistake is said at once, in the form.
  private mutating func submitProviderSetup(_ form: ProviderSetupForm) -> [Effect] {
    let clientID: String
    var port: UInt16?
    var secret: ClientSecret?
    // The field being checked: a refusal puts the focus there.
    var field = ProviderSetupForm.Field.clientID
    do throws(ProviderSetupError) {
      clientID = try ProviderSetup.checkedClientID(form.clientID.text)
      if let text = form.clientSecret?.text {
        field = .clientSecret
        secret = try ProviderSetup.checkedClientSecret(text)
      }
      if let text = form.redirectPort?.text {
        field = .redirectPort
        port = try ProviderSetup.checkedPort(text)
      }
    } catch {
      updateProviderSetup {
        $0.problem = error.description
        $0.focus = field
      }
      return []
    }
    let id = startBusy("saving \(form.setup.file)", writesVault: false)
    updateProviderSetup {
      $0.pending = id
      $0.problem = nil
    }
    return [
      .saveProviderSetup(
        id, provider: form.provider.id, clientID: clientID, redirectPort: port,
        clientSecret: secret)
    ]
  }

  /// The setup was saved (and the catalog read again), or not: on success the sign-in goes on
  /// with the provider as it is now; a failure is said in the form, which stays.
  mutating func providerSetupSaved(
    _ request: RequestID, provider id: ProviderID,
    _ result: Result<[ProviderSummary], ProviderSetupError>, now: Date
  ) -> [Effect] {
    let formIndex = formIndex(waitingFor: request)
    switch result {
    case .failure(let failure):
      requestFailed(failure.description, inFormAt: formIndex, now: now)
      return []
    case .success(let list):
      providers = list
      guard let index = list.firstIndex(where: { $0.id == id }) else { return [] }
      let provider = list[index]
      var file = "providers/\(id).json"
      var saved = "the client id"
      if let formIndex, case .providerSetup(let form) = panels[formIndex] {
        file = form.setup.file
        if form.setup.asksClientSecret { saved = "the client id and secret" }
      }
      message = StatusMessage(.success, "saved \(saved) of \(provider.name) to \(file)", now: now)
      // The user left the form while it was saved: the sign-in is theirs to start.
      guard let formIndex, formIndex == panels.count - 1 else { return [] }
      panels.removeLast()
      return continueSignIn(provider, at: index, file: file, now: now)
    }
  }

  /// Goes on with the sign-in on the provider choice after `provider` (row `index`) was
  /// saved to `file`: straight to its flow screen when it has one flow, to the flow choice when
  /// it has more, to its setup form when it still lacks a client id.
  mutating func continueSignIn(
    _ provider: ProviderSummary, at index: Int, file: String, now: Date
  ) -> [Effect] {
    updateSignIn { $0.step = .chooseProvider(selected: index) }
    guard provider.isUsable, let method = provider.methods.first else {
      if let setup = provider.setup { return openProviderSetup(provider, setup: setup) }
      let problem = provider.problems.first ?? "it offers no sign-in flow"
      message = StatusMessage(
        .error, "saved \(file), but \(provider.name) cannot be used yet: \(problem)", now: now)
      return []
    }
    if provider.methods.count == 1 {
      return startAttempt(provider: provider, method: method, now: now)
    }
    updateSignIn { $0.step = .chooseMethod(provider: provider, selected: 0) }
    return []
  }

  /// Changes the setup form on top, if the top panel is one.
  mutating func updateProviderSetup(_ change: (inout ProviderSetupForm) -> Void) {
    guard case .providerSetup(var form) = topPanel else { return }
    change(&form)
    panels[panels.count - 1] = .providerSetup(form)
  }
}
