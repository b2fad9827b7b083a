import AuthCore
import Foundation
import Providers

extension AppState {
  /// Opens the "Other provider…" form over the provider choice (the demo fills in its sandbox
  /// server).
  mutating func openOtherProvider() -> [Effect] {
    panels.append(.otherProvider(IssuerForm(suggestion: configuration.issuerSuggestion)))
    return []
  }

  mutating func performOtherProvider(_ command: Command, now: Date) -> [Effect] {
    guard case .otherProvider(let form) = topPanel else { return [] }
    switch command {
    case .back:
      switch form.pending {
      case .discovering(let id)?:
        // The form stays with what was typed; the discovery's request is abandoned.
        endBusy(id)
        updateOtherProvider {
          $0.pending = nil
          $0.problem = "discovery stopped; Enter tries again"
        }
        return [.cancel(id)]
      case .adding?, nil:
        // An addition in flight still finishes: the provider then shows in the list.
        panels.removeLast()
      }
    case .nextField, .previousField:
      guard form.pending == nil else { return [] }
      let next = form.fields.cycling(from: form.focus, by: command == .nextField ? 1 : -1)
      updateOtherProvider { $0.focus = next }
    case .confirm:
      guard form.pending == nil else { return [] }
      return form.discovery == nil ? discover(form) : add(form)
    default:
      break
    }
    return []
  }

  /// Checks what was typed, then discovers the issuer in the background.
  private mutating func discover(_ form: IssuerForm) -> [Effect] {
    let issuer = form.issuer.text.trimmingCharacters(in: .whitespaces)
    guard !issuer.isEmpty else {
      refuse(
        "type the server's issuer URL, such as https://id.example.com/realms/work", at: .issuer)
      return []
    }
    if let problem = clientIDProblem(form) {
      refuse(problem, at: .clientID)
      return []
    }
    let id = startBusy("discovering \(issuer)", writesVault: false)
    updateOtherProvider {
      $0.pending = .discovering(id)
      $0.problem = nil
    }
    return [.discoverIssuer(id, issuer: issuer)]
  }

  /// Checks the provider's id (the provider-id rule, and no provider has it), then registers
  /// (where the form says so) and saves in the background.
  private mutating func add(_ form: IssuerForm) -> [Effect] {
    let issuer = form.issuer.text.trimmingCharacters(in: .whitespaces)
    if let problem = clientIDProblem(form) {
      refuse(problem, at: .clientID)
      return []
    }
    let text = form.providerID.text.trimmingCharacters(in: .whitespaces)
    let provider: ProviderID
    do {
      provider = try ProviderID(text)
    } catch {
      refuse(error.description, at: .providerID)
      return []
    }
    if let existing = self.provider(provider) {
      let suggestion = ProviderAddition.suggestedID(
        forIssuer: issuer, avoiding: Set(providers.map(\.id)))
      refuse(
        "\(provider) is taken (\(existing.name)); choose another id, such as \(suggestion)",
        at: .providerID)
      return []
    }
    let doing = form.registers ? "registering authtui with" : "adding"
    let id = startBusy("\(doing) \(issuer)", writesVault: false)
    updateOtherProvider {
      $0.pending = .adding(id)
      $0.problem = nil
    }
    return [.addProvider(id, provider: provider, issuer: issuer, clientID: form.givenClientID)]
  }

  /// Why the client id typed cannot be one, nil when it can (or none was typed).
  private func clientIDProblem(_ form: IssuerForm) -> String? {
    guard let text = form.givenClientID else { return nil }
    do {
      _ = try ProviderSetup.checkedClientID(text)
      return nil
    } catch {
      return error.description
    }
  }

  /// Says `problem` in the form and puts the focus on `field`.
  private mutating func refuse(_ problem: String, at field: IssuerForm.Field) {
    updateOtherProvider {
      $0.problem = problem
      $0.focus = field
    }
  }

  /// The discovery `request` of `issuer` ended: the form shows what the server offers, with the
  /// provider's id prefilled from its host, or says why not. An answer the person stopped
  /// waiting for is dropped.
  mutating func issuerDiscovered(
    _ request: RequestID, issuer: String, _ result: Result<IssuerSummary, ProviderAdditionError>
  ) {
    guard let index = formIndex(waitingFor: request), case .otherProvider(var form) = panels[index]
    else { return }
    form.pending = nil
    switch result {
    case .success(let summary):
      form.discovery = summary
      if form.providerID.isEmpty {
        form.providerID = TextField(
          ProviderAddition.suggestedID(forIssuer: issuer, avoiding: Set(providers.map(\.id)))
            .rawValue)
      }
      form.focus = .providerID
      form.problem = nil
    case .failure(let failure):
      form.problem = failure.formLine
      form.focus = failure.formField
    }
    panels[index] = .otherProvider(form)
  }

  /// The addition `request` ended: on success the catalog holds the provider, and the sign-in
  /// goes on to it (its flow screen, its flow choice, or its setup form when the server lets no
  /// application register itself); a failure is said in the form, which keeps what was typed.
  mutating func providerAdded(
    _ request: RequestID, _ result: Result<ProviderAdded, ProviderAdditionError>, now: Date
  ) -> [Effect] {
    let formIndex = formIndex(waitingFor: request)
    switch result {
    case .failure(let failure):
      requestFailed(failure.formLine, inFormAt: formIndex, now: now)
      if let formIndex, case .otherProvider(var form) = panels[formIndex] {
        form.focus = failure.formField
        panels[formIndex] = .otherProvider(form)
      }
      return []
    case .success(let added):
      useProviders(added.providers)
      let registered = added.registeredClientID.map { "registered authtui as the client \($0); " }
      message = StatusMessage(.success, (registered ?? "") + "saved \(added.file)", now: now)
      guard let index = providers.firstIndex(where: { $0.id == added.id }) else { return [] }
      // The person left the form meanwhile: the sign-in is theirs to start.
      guard let formIndex, formIndex == panels.count - 1 else { return [] }
      panels.removeLast()
      return continueSignIn(providers[index], at: index, file: added.file, now: now)
    }
  }

  /// Changes the "Other provider…" form on top, if the top panel is one.
  mutating func updateOtherProvider(_ change: (inout IssuerForm) -> Void) {
    guard case .otherProvider(var form) = topPanel else { return }
    change(&form)
    panels[panels.count - 1] = .otherProvider(form)
  }
}
