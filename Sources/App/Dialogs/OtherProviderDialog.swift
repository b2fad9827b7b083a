import AuthCore
import Foundation
import Providers
import Spelling
import Terminal
import Theme

/// The "Other provider…" form at the end of the sign-in's provider list: a provider of one's
/// own from its issuer URL, as `authtui providers add` makes it. Enter discovers the server
/// (in the background), the form then shows what it offers and whether authtui can register
/// itself there, with the provider's id to confirm; Enter again registers (when no client id
/// was given and the server allows it), saves `providers/ID.json` and goes on to the sign-in.
public struct IssuerForm: Sendable, Equatable {
  /// The fields, in focus order.
  public enum Field: Sendable, Equatable {
    case issuer, clientID, providerID
  }

  /// The work in flight; the form takes no second request meanwhile.
  public enum Pending: Sendable, Equatable {
    /// Discovering the issuer (Esc stops waiting for it).
    case discovering(RequestID)
    /// Registering and saving the provider.
    case adding(RequestID)
  }

  /// The issuer URL typed or pasted (prefilled with the demo's sandbox server).
  public var issuer: TextField
  /// A client id the person has already; empty: authtui registers itself where it can.
  public var clientID = TextField()
  /// The provider's id, shown once the issuer is discovered (prefilled from its host).
  public var providerID = TextField()
  /// The focused field.
  public var focus: Field = .issuer
  /// What the server offers, once discovered, and the issuer as it was typed then: editing
  /// the issuer forgets it.
  public var discovery: IssuerSummary?
  /// Why the last step failed and what to do, said under the form; the fields keep what was
  /// typed.
  public var problem: String?
  /// The work in flight.
  public var pending: Pending?

  /// An empty form; `suggestion` prefills the issuer (the demo's sandbox server).
  public init(suggestion: String? = nil) {
    issuer = TextField(suggestion ?? "")
  }

  /// The fields shown, in focus order.
  public var fields: [Field] {
    discovery == nil ? [.issuer, .clientID] : [.issuer, .clientID, .providerID]
  }

  /// The client id typed, without surrounding spaces; nil when none was.
  public var givenClientID: String? {
    let text = clientID.text.trimmingCharacters(in: .whitespaces)
    return text.isEmpty ? nil : text
  }

  /// True when saving registers authtui with the server first (RFC 7591): no client id was
  /// given and the discovered server offers registration.
  public var registers: Bool { givenClientID == nil && discovery?.registration == true }

  /// The request the form waits for, if any.
  public var pendingRequest: RequestID? {
    switch pending {
    case .discovering(let id)?, .adding(let id)?: return id
    case nil: return nil
    }
  }
}

extension IssuerForm: Dialog {
  static let dialogCase = DialogCase(embed: DialogPanel.otherProvider) {
    if case .otherProvider(let form) = $0 { form } else { nil }
  }
  var context: KeyContext { .otherProvider }

  mutating func requestFailed(_ problem: String) {
    pending = nil
    self.problem = problem
  }

  mutating func edit(_ change: (inout TextField) -> Void) {
    guard pending == nil else { return }
    switch focus {
    case .issuer:
      change(&issuer)
      // What was found was for the issuer as it was: another one is discovered afresh.
      discovery = nil
      providerID.clear()
    case .clientID: change(&clientID)
    case .providerID: change(&providerID)
    }
    problem = nil
  }

  func hints(_ state: AppState) -> [(Command, String)] {
    switch pending {
    case .discovering?: return [(.back, "stop")]
    case .adding?: return [(.back, "close")]
    case nil: break
    }
    let confirm =
      discovery == nil ? "discover" : registers ? "register and save" : "save"
    return [(.confirm, confirm)] + Hints.words(.nextField, .back)
  }

  func draw(state: AppState, body: Rect, now: Date, in buffer: inout ScreenBuffer) {
    buffer.fill(body, role: .default)
    Chrome.titleBar("Other provider", detail: "from its issuer URL", in: &buffer)
    // On a short screen the fields, the verdict and the last line come first: the blank
    // lines and the explanation give way, and the facts run on as one text. On the shortest,
    // the last line (a refusal is read whole) and the focused field keep their rows, the
    // other fields and the verdict take what is left in order, and the blank row under the
    // title gives way first.
    let roomy = body.size.rows - 1 >= 18
    let columns = body.size.columns - 4
    let last = OtherProviderView.lastLine(
      self, state: state, now: now, width: columns,
      problemRows: roomy ? 7 : max(7, body.size.rows - 1))
    let (verdict, verdictRole) = OtherProviderView.verdict(self)
    var verdictLines = verdict.isEmpty ? [] : TextWrap.lines(verdict, width: columns)
    var shownFields = fields
    var top = 1
    if !roomy {
      var budget = RowBudget(rows: body.size.rows, needed: last.lines.count + 1)
      shownFields = fields.filter { $0 == focus || budget.take(1) }
      if !budget.take(verdictLines.count) { verdictLines = [] }
      top = budget.blank()
    }
    let area = Rect(
      row: body.top + top, column: 2, rows: body.size.rows - top, columns: columns)
    var page = Page(area)
    let labelWidth = 14
    let fieldWidth = min(area.size.columns - labelWidth, 56)
    var cursor: Point?
    func input(
      _ label: String, _ field: TextField, _ placeholder: String, _ which: IssuerForm.Field
    ) {
      guard shownFields.contains(which), !page.isFull else { return }
      let end = InputLine.draw(
        label, field, placeholder: placeholder, row: page.row, column: area.left,
        labelWidth: labelWidth, width: fieldWidth, in: &buffer)
      if focus == which && pending == nil { cursor = end }
      page.skip()
    }
    if roomy {
      page.line(
        [("Any OpenID Connect or OAuth 2 server, from its issuer URL", .listGroup)], in: &buffer)
      page.skip()
      if discovery == nil {
        page.wrapped(
          "authtui reads what the server publishes, registers itself there where the server "
            + "allows it (RFC 7591), saves the provider to a file of yours, and signs in.",
          role: .details, in: &buffer)
        page.skip()
      }
    }
    input(
      "Issuer URL", issuer, state.configuration.issuerSuggestion ?? "https://id.example.com",
      .issuer)
    // Once a registration has failed, the field is where the administrator's client id goes.
    let registrationFailed = problem != nil && discovery?.registration == true
    input(
      "Client id", clientID,
      registrationFailed
        ? "from the server's administrator"
        : "optional: authtui registers itself", .clientID)
    if roomy { page.skip() }
    if let summary = discovery {
      // The verdict, the id and the last line (the problem, the spinner or what Enter does)
      // keep their rows; the facts take what is left.
      let idRows = shownFields.contains(.providerID) ? 1 : 0
      let reserved = verdictLines.count + idRows + last.lines.count + (roomy ? 2 : 0)
      let facts = summary.facts
      let room = page.remaining - reserved
      if roomy && room >= facts.count + 1 {
        page.line([("What \(summary.issuer) offers:", .details)], in: &buffer)
        let width = (facts.map { DisplayWidth.of($0.label) }.max() ?? 0) + 2
        for fact in facts {
          page.line(
            [
              (fact.label.padding(toLength: width, withPad: " ", startingAt: 0), .detailsLabel),
              (fact.value, .details),
            ], indent: 2, in: &buffer)
        }
      } else if room > 0 {
        page.wrapped(
          facts.map { "\($0.label): \($0.value)" }.joined(separator: "; "), role: .details,
          limit: room, in: &buffer)
      }
      for line in verdictLines { page.line([(line, verdictRole)], in: &buffer) }
      if roomy { page.skip() }
      input("Provider id", providerID, "lowercase letters, digits and -", .providerID)
    }
    if roomy { page.skip() }
    let bottom = Page(
      Rect(
        row: max(page.row, area.bottom - last.lines.count), column: area.left,
        rows: last.lines.count, columns: area.size.columns))
    var lastPage = bottom
    for (index, line) in last.lines.enumerated() {
      if index == 0, let spinner = last.spinner {
        lastPage.line([(spinner, .spinner), (" " + line, last.role)], in: &buffer)
      } else {
        lastPage.line([(line, last.role)], in: &buffer)
      }
    }
    buffer.cursor = cursor
  }

  func perform(_ command: Command, in state: inout AppState, now: Date) -> [Effect] {
    state.performOtherProvider(self, command, now: now)
  }
}

extension AppState {
  /// Opens the "Other provider…" form over the provider choice (the demo fills in its sandbox
  /// server).
  mutating func openOtherProvider() -> [Effect] {
    panels.append(IssuerForm(suggestion: configuration.issuerSuggestion).panel)
    return []
  }

  mutating func performOtherProvider(_ form: IssuerForm, _ command: Command, now: Date) -> [Effect]
  {
    switch command {
    case .back:
      switch form.pending {
      case .discovering(let id)?:
        // The form stays with what was typed; the discovery's request is abandoned.
        endBusy(id)
        updateDialog(IssuerForm.self) {
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
      updateDialog(IssuerForm.self) { $0.focus = next }
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
    // Before the status line repeats the issuer: a password may be in it.
    if let problem = ProviderAddition.issuerProblem(issuer) {
      refuse(problem.formLine, at: problem.formField)
      return []
    }
    if let problem = clientIDProblem(form) {
      refuse(problem, at: .clientID)
      return []
    }
    let id = startBusy("discovering \(issuer)", writesVault: false)
    updateDialog(IssuerForm.self) {
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
    updateDialog(IssuerForm.self) {
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
    updateDialog(IssuerForm.self) {
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
    guard let index = formIndex(waitingFor: request), var form = IssuerForm(panels[index]) else {
      return
    }
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
    panels[index] = form.panel
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
      if let formIndex {
        updateDialog(IssuerForm.self, at: formIndex) { $0.focus = failure.formField }
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
}

/// The "Other provider…" form: the issuer URL and an optional client id; once discovered, what
/// the server offers (the facts `authtui providers add` prints), whether authtui can register
/// itself there, and the provider's id; the spinner while it works, or the one line that says
/// what failed and the fix.
enum OtherProviderView {

  /// Whether authtui can register itself there, as one sentence, and its role.
  static func verdict(_ form: IssuerForm) -> (String, Role) {
    guard let summary = form.discovery else { return ("", .details) }
    if let clientID = form.givenClientID {
      return ("✓ authtui signs in as the client \(clientID) you gave.", .statusSuccess)
    }
    if summary.registration, form.problem != nil {
      // The last step failed (a refused registration, a file not written): no promise beside
      // the refusal below, which says what to do (the facts above still say it is offered).
      return ("", .details)
    }
    if summary.registration {
      return (
        "✓ authtui can register itself there, as a public client (RFC 7591).", .statusSuccess
      )
    }
    return (
      "✗ It lets no application register itself: type a client id its administrator gives "
        + "you, or save now and add one later.", .statusWarning
    )
  }

  /// The form's last line: why the last step failed (in up to `problemRows` rows), the work
  /// under way (with the spinner), or what Enter does.
  static func lastLine(
    _ form: IssuerForm, state: AppState, now: Date, width: Int, problemRows: Int = 7
  ) -> (lines: [String], role: Role, spinner: String?) {
    if let problem = form.problem {
      return (
        TextWrap.lines("✗ " + problem, width: width, limit: problemRows), .statusError, nil
      )
    }
    let issuer = form.issuer.text.trimmingCharacters(in: .whitespaces)
    switch form.pending {
    case .discovering?:
      let text = "Discovering \(issuer)…"
      return (
        TextWrap.lines(text, width: width - 2, limit: 2), .statusBusy, Chrome.spinner(at: now)
      )
    case .adding?:
      let text = form.registers ? "Registering authtui and saving…" : "Saving…"
      return ([text], .statusBusy, Chrome.spinner(at: now))
    case nil:
      break
    }
    guard form.discovery != nil else {
      return (
        TextWrap.lines(
          "Enter discovers what the server offers; nothing is saved yet.", width: width,
          limit: 2), .listSecondary, nil
      )
    }
    let id = form.providerID.text.isEmpty ? "ID" : form.providerID.text
    let file = "\(state.configuration.configDirectory)/providers/\(id).json"
    let text =
      (form.registers ? "Enter registers authtui, saves " : "Enter saves ") + file
      + (form.givenClientID == nil && !form.registers ? "." : " and signs in.")
    return (TextWrap.lines(text, width: width, limit: 2), .listSecondary, nil)
  }
}
