import AuthCore
import Foundation
import Providers
import Spelling
import Terminal
import Theme

/// The setup form of a provider that has no client id yet: where to register an application,
/// the client id it gave, its client secret where the provider wants one (Google), and the
/// redirect port when the registration fixes one. Saving it writes `providers/ID.json` and
/// goes on to the sign-in.
public struct ProviderSetupForm: Sendable, Equatable {
  /// The fields, in focus order.
  public enum Field: Sendable, Equatable {
    case clientID, clientSecret, redirectPort
  }

  /// The provider set up.
  public var provider: ProviderSummary
  /// What the provider's registration asks for.
  public var setup: ProviderSetup
  /// The client id typed or pasted.
  public var clientID = TextField()
  /// The client secret, when the provider wants one; shown as dots.
  public var clientSecret: TextField?
  /// The redirect port, when the registration fixes one (prefilled with the preset's).
  public var redirectPort: TextField?
  /// The focused field.
  public var focus: Field = .clientID
  /// Why the form was not saved, said under it.
  public var problem: String?
  /// The save in flight; the form takes no second one meanwhile.
  public var pending: RequestID?

  /// The form for `provider`, whose catalog entry lacks a client id.
  public init(provider: ProviderSummary, setup: ProviderSetup) {
    self.provider = provider
    self.setup = setup
    redirectPort = setup.redirectPort.map { TextField(String($0)) }
    clientID = TextField(setup.clientID ?? "")
    clientSecret = setup.asksClientSecret ? TextField(isSecret: true) : nil
    if setup.clientID != nil, setup.asksClientSecret { focus = .clientSecret }
  }

  /// The fields shown, in focus order.
  public var fields: [Field] {
    [.clientID] + (clientSecret == nil ? [] : [.clientSecret])
      + (redirectPort == nil ? [] : [.redirectPort])
  }
}

extension ProviderSetupForm: WaitingForm {
  static let dialogCase = DialogCase(embed: DialogPanel.providerSetup) {
    if case .providerSetup(let form) = $0 { form } else { nil }
  }
  var context: KeyContext { .providerSetup }

  mutating func edit(_ change: (inout TextField) -> Void) {
    switch focus {
    case .clientID: change(&clientID)
    case .clientSecret:
      if var field = clientSecret {
        change(&field)
        clientSecret = field
      }
    case .redirectPort:
      if var field = redirectPort {
        change(&field)
        redirectPort = field
      }
    }
    problem = nil
  }

  func hints(_ state: AppState) -> [(Command, String)] {
    [(.confirm, "save and sign in")]
      + (redirectPort == nil ? Hints.words(.back) : Hints.words(.nextField, .back))
  }

  func draw(state: AppState, body: Rect, now: Date, in buffer: inout ScreenBuffer) {
    buffer.fill(body, role: .default)
    let name = provider.name
    let wanted = setup.asksClientSecret ? "client id and secret" : "client id"
    Chrome.titleBar("Set up \(name)", detail: setup.missing, in: &buffer)
    let area = Rect(
      row: body.top + 1, column: 2, rows: body.size.rows - 1, columns: body.size.columns - 4)
    // On a short screen the fields and the problem come first: the explanation gives way.
    let roomy = area.size.rows >= 18
    var page = Page(area)
    page.line([("\(name) needs a \(wanted) of your own", .listGroup)], in: &buffer)
    if roomy {
      page.skip()
      page.wrapped(
        "authtui signs in as an application you register with \(name): "
          + (setup.asksClientSecret
            ? "an installed application, whose client secret \(name) still wants at its token "
              + "endpoint although it is not confidential."
            : "a public client, with no client secret."),
        role: .details, in: &buffer)
    }
    page.skip()
    if let url = setup.registrationURL {
      let lead = "1. Register an application at "
      if DisplayWidth.of(lead + url) <= area.size.columns {
        page.line([(lead, .details), (url, .url)], in: &buffer)
      } else {
        // The address is never cut: it goes on lines of its own.
        page.line([("1. Register an application at", .details)], in: &buffer)
        page.wrapped(url, role: .url, indent: 3, limit: 2, in: &buffer)
      }
    } else {
      page.wrapped("1. Ask \(name) for a public (PKCE) client id.", role: .details, in: &buffer)
    }
    // What to register (application type, redirect URI, scopes) when there is room; the
    // provider's own note follows.
    if roomy {
      for fact in setup.guide.facts {
        page.wrapped(
          "\(fact.label): \(fact.value)", role: .listSecondary, indent: 3, limit: 2, in: &buffer)
      }
    }
    if let note = setup.registrationNote {
      page.wrapped(note, role: .listSecondary, indent: 3, limit: roomy ? 3 : 2, in: &buffer)
    }
    page.line([("2. Type or paste the \(wanted) it gives:", .details)], in: &buffer)
    if roomy { page.skip() }
    let labelWidth = 15
    var cursor: Point?
    func input(_ label: String, _ field: TextField, placeholder: String, focused: Bool) {
      guard !page.isFull else { return }
      let end = InputLine.draw(
        label, field, placeholder: placeholder, row: page.row, column: area.left,
        labelWidth: labelWidth, width: min(area.size.columns - labelWidth, 44), in: &buffer)
      if focused { cursor = end }
      page.skip()
    }
    input(
      "Client id", clientID, placeholder: "the application's client id",
      focused: focus == .clientID)
    if let secret = clientSecret {
      input(
        "Client secret", secret, placeholder: "the application's client secret",
        focused: focus == .clientSecret)
    }
    if let port = redirectPort {
      input(
        "Redirect port", port, placeholder: "1024-65535", focused: focus == .redirectPort)
      if roomy {
        page.line(
          [("the port of the redirect URI you registered", .listSecondary)], indent: labelWidth,
          in: &buffer)
      }
    }
    page.skip()
    if let problem {
      page.wrapped(
        "✗ " + problem, role: .statusError, limit: max(1, min(3, page.remaining)), in: &buffer)
    } else if pending != nil {
      page.line([(Chrome.spinner(at: now), .spinner), (" Saving…", .statusBusy)], in: &buffer)
    } else {
      page.wrapped(
        "Enter saves it to \(setup.file) (mode 0600; the file's other fields stay) and signs "
          + "in.", role: .listSecondary, limit: max(1, min(3, page.remaining)), in: &buffer)
    }
    buffer.cursor = cursor
  }

  func perform(_ command: Command, in state: inout AppState, now: Date) -> [Effect] {
    state.performProviderSetup(self, command, now: now)
  }
}

extension AppState {
  /// Opens the setup form of `provider`, which has no client id yet, over the provider choice.
  mutating func openProviderSetup(_ provider: ProviderSummary, setup: ProviderSetup) -> [Effect] {
    panels.append(ProviderSetupForm(provider: provider, setup: setup).panel)
    return []
  }

  mutating func performProviderSetup(_ form: ProviderSetupForm, _ command: Command, now: Date)
    -> [Effect]
  {
    switch command {
    case .back:
      // A save in flight still finishes; the provider list then shows the provider ready.
      panels.removeLast()
    case .nextField, .previousField:
      let next = form.fields.cycling(from: form.focus, by: command == .nextField ? 1 : -1)
      updateDialog(ProviderSetupForm.self) { $0.focus = next }
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
      updateDialog(ProviderSetupForm.self) {
        $0.problem = error.description
        $0.focus = field
      }
      return []
    }
    let id = startBusy("saving \(form.setup.file)", writesVault: false)
    updateDialog(ProviderSetupForm.self) {
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
    case .success(let catalog):
      providers = Self.inChoiceOrder(catalog)
      let list = providers
      guard let index = list.firstIndex(where: { $0.id == id }) else { return [] }
      let provider = list[index]
      var file = "providers/\(id).json"
      var saved = "the client id"
      if let formIndex, let form = ProviderSetupForm(panels[formIndex]) {
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
}
