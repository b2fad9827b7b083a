import AuthCore
import Foundation
import QRCode
import Spelling
import Terminal
import Theme

/// The sign-in screens: the provider choice, the flow choice and the flow screen (the URL to
/// approve, or the user code shown large, with the countdown).
enum SignInView {
  static func draw(
    _ signIn: SignInState, state: AppState, body: Rect, now: Date, in buffer: inout ScreenBuffer
  ) {
    buffer.fill(body, role: .default)
    let inner = Rect(
      row: body.top + 1, column: 2, rows: body.size.rows - 1, columns: body.size.columns - 4)
    // The choices leave their last two rows to the label the account is stored under.
    let choices = Rect(
      row: inner.top, column: inner.left, rows: max(1, inner.size.rows - 2),
      columns: inner.size.columns)
    switch signIn.step {
    case .chooseProvider(let selected):
      Chrome.titleBar("Add an account", detail: "step 1 of 3", in: &buffer)
      drawProviders(state, selected: selected, area: choices, in: &buffer)
      drawLabel(signIn, state: state, row: inner.bottom - 1, area: inner, in: &buffer)
      drawDemoAnswer(signIn, state: state, row: inner.bottom - 2, area: inner, in: &buffer)
    case .chooseMethod(let provider, let selected):
      Chrome.titleBar("Sign in to \(provider.name)", detail: "step 2 of 3", in: &buffer)
      drawLabel(signIn, state: state, row: inner.bottom - 1, area: inner, in: &buffer)
      drawDemoAnswer(signIn, state: state, row: inner.bottom - 2, area: inner, in: &buffer)
      var page = Page(choices)
      page.wrapped(
        "How do you want to sign in to \(provider.name)?", role: .listGroup, in: &buffer)
      page.skip()
      for (index, method) in provider.methods.enumerated() {
        let row = page.row
        let role: Role = index == selected ? .listSelected : .list
        buffer.fill(Rect(row: row, column: 0, rows: 1, columns: body.size.columns), role: role)
        if index == selected { buffer.write("›", at: Point(row: row, column: 1), role: role) }
        page.line(
          [
            (method.title.padding(toLength: 14, withPad: " ", startingAt: 0), role),
            (method.explanation, index == selected ? role : .listSecondary),
          ], indent: 1, in: &buffer)
      }
    case .attempt(let attempt):
      Chrome.titleBar(
        "Sign in to \(attempt.provider.name)", detail: attempt.method.shortTitle, in: &buffer)
      drawAttempt(attempt, state: state, area: inner, now: now, in: &buffer)
    }
  }

  /// In the demo with no browser, what its approver will answer (`m` changes it).
  private static func drawDemoAnswer(
    _ signIn: SignInState, state: AppState, row: Int, area: Rect, in buffer: inout ScreenBuffer
  ) {
    guard let name = state.configuration.demoApprover, row > area.top + 2 else { return }
    let answer: String
    switch signIn.demoChoice {
    case .approve: answer = "approves as \(signIn.label ?? name)"
    case .deny: answer = "declines"
    case .ignore: answer = "ignores the page (a silent denial)"
    }
    // While the label is typed, keys type into it: the key that changes the answer is named
    // once the field is closed.
    let change =
      signIn.labelField == nil
      ? " (\(state.keyName(.demoAnswer, in: .providerChoice)) to change)" : ""
    buffer.write(
      "Demo: its approver \(answer)\(change)", at: Point(row: row, column: area.left),
      role: .listSecondary, maxWidth: area.size.columns, truncation: .ellipsis)
  }

  /// The label line under the choices (`l` changes it), or its field while it is open.
  private static func drawLabel(
    _ signIn: SignInState, state: AppState, row: Int, area: Rect, in buffer: inout ScreenBuffer
  ) {
    guard row > area.top + 2 else { return }
    let start = buffer.write("Label: ", at: Point(row: row, column: area.left), role: .inputLabel)
    guard let field = signIn.labelField else {
      let key = state.keyName(.editLabel, in: state.context)
      let label = signIn.label ?? "your name at the provider"
      buffer.write(
        label + " (\(key) to change)", at: Point(row: row, column: start),
        role: signIn.label == nil ? .listSecondary : .list, maxWidth: area.right - start,
        truncation: .ellipsis)
      return
    }
    buffer.fill(
      Rect(row: row, column: start, rows: 1, columns: area.right - start), role: .input)
    var shown = field.text
    while DisplayWidth.of(shown) > area.right - start - 1 { shown.removeFirst() }
    let end = buffer.write(shown, at: Point(row: row, column: start), role: .input)
    if field.isEmpty {
      buffer.write(
        "empty: your name at the provider", at: Point(row: row, column: start),
        role: .inputPlaceholder)
    }
    buffer.cursor = Point(row: row, column: end)
  }

  /// The provider list's last row, which adds a provider from its issuer URL.
  static let otherProvider = "Other provider…"

  private static func drawProviders(
    _ state: AppState, selected: Int, area: Rect, in buffer: inout ScreenBuffer
  ) {
    var page = Page(area)
    let headingRow = page.row
    page.line([("Choose a provider", .listGroup)], in: &buffer)
    page.skip()
    let width = buffer.size.columns
    // A third of the width, or as wide as the longest name when the flows (or the problem)
    // keep 24 columns beside it.
    let longest =
      (state.providers.map(\.name) + [otherProvider]).map { DisplayWidth.of($0) }.max() ?? 0
    let nameWidth = max(
      min(20, max(10, area.size.columns / 3)), min(longest, area.size.columns - 2 - 24))
    // The whole problem of the selected provider, leaving a few rows of the list.
    let problemRows = selectedProblemRows(
      state, selected: selected, width: area.size.columns,
      limit: max(1, page.remaining - 1 - min(3, state.providers.count)))
    let listRows = max(1, page.remaining - problemRows.count - 1)
    // The providers, then "Other provider…".
    let rowCount = state.providers.count + 1
    let top = max(0, min(selected - listRows + 1, rowCount - listRows))
    ScrollHint.draw(
      above: top, below: max(0, rowCount - top - listRows), row: headingRow, area: area,
      in: &buffer)
    for index in top..<min(rowCount, top + listRows) {
      let isSelected = index == selected
      let row = page.row
      let role: Role = isSelected ? .listSelected : .list
      buffer.fill(Rect(row: row, column: 0, rows: 1, columns: width), role: role)
      if isSelected { buffer.write("›", at: Point(row: row, column: 1), role: role) }
      let column = area.left + 2 + nameWidth
      guard state.providers.indices.contains(index) else {
        buffer.write(
          otherProvider, at: Point(row: row, column: area.left + 1), role: role,
          maxWidth: nameWidth, truncation: .ellipsis)
        buffer.write(
          "any server, from its issuer URL", at: Point(row: row, column: column),
          role: isSelected ? role : .listSecondary, maxWidth: area.right - column,
          truncation: .ellipsis)
        page.skip()
        continue
      }
      let provider = state.providers[index]
      buffer.write(
        provider.name, at: Point(row: row, column: area.left + 1),
        role: provider.isUsable ? role : (isSelected ? role : .listSecondary), maxWidth: nameWidth,
        truncation: .ellipsis)
      if provider.isUsable {
        buffer.write(
          provider.methods.map(\.title).joined(separator: ", "),
          at: Point(row: row, column: column), role: isSelected ? role : .listSecondary,
          maxWidth: area.right - column, truncation: .ellipsis)
      } else {
        let problem =
          provider.setup.map { "\($0.missing): Enter sets one up" } ?? provider.problems.first
          ?? "cannot be used"
        buffer.write(
          "✗ " + problem, at: Point(row: row, column: column),
          role: .statusWarning, maxWidth: area.right - column, truncation: .ellipsis)
      }
      page.skip()
    }
    if !problemRows.isEmpty {
      page.skip()
      // A provider to set up is no fault: what to register reads as guidance.
      let role: Role =
        !state.providers.indices.contains(selected) || state.providers[selected].setup != nil
        ? .details : .statusWarning
      for line in problemRows { page.line([(line, role)], in: &buffer) }
    }
  }

  /// The whole problem text of the selected provider when it cannot be used; for one that
  /// only lacks a client id, what to register for it.
  private static func selectedProblemRows(
    _ state: AppState, selected: Int, width: Int, limit: Int
  ) -> [String] {
    if selected == state.providers.count {
      var text =
        "Any OpenID Connect or OAuth 2 server: authtui discovers it from its issuer URL, "
        + "registers itself there where the server allows it, and saves providers/ID.json."
      if let suggestion = state.configuration.issuerSuggestion {
        text += "\nIn the demo, try \(suggestion): nothing to register."
      }
      return TextWrap.lines(text, width: width, limit: limit)
    }
    guard state.providers.indices.contains(selected), !state.providers[selected].isUsable
    else { return [] }
    let provider = state.providers[selected]
    if let setup = provider.setup {
      let place =
        setup.registrationURL.map { "To set it up, register an application at \($0)" }
        ?? "To set it up, ask \(provider.name) for a public (PKCE) client id"
      let facts = setup.guide.facts.map { "\($0.label): \($0.value)" }
      return TextWrap.lines(
        ([place] + facts).joined(separator: "\n"), width: width, limit: limit)
    }
    let problems = provider.problems
    let text =
      problems.isEmpty ? "This provider offers no sign-in flow." : problems.joined(separator: "\n")
    return TextWrap.lines(text, width: width, limit: limit)
  }

  private static func drawAttempt(
    _ attempt: SignInAttemptState, state: AppState, area: Rect, now: Date,
    in buffer: inout ScreenBuffer
  ) {
    var page = Page(area)
    let progress = attempt.progress
    let name = attempt.provider.name
    if attempt.isRunning && (progress == nil || progress?.isFinishing == true) {
      let text =
        progress == nil
        ? " Preparing the sign-in…" : " Exchanging the code and storing the account…"
      page.line([(Chrome.spinner(at: now), .spinner), (text, .statusBusy)], in: &buffer)
      return
    }
    if let failure = attempt.failure {
      // The attempt is over: its address, code and countdown are dead, so only what ended it
      // and the way to a fresh one stay.
      let ending = failure.signInEnding(
        provider: name, backKey: state.keyName(.back, in: .signIn),
        labelKey: state.keyName(.editLabel, in: .providerChoice),
        started: attempt.progress != nil)
      page.wrapped("✗ " + ending, role: .statusError, in: &buffer)
      page.skip()
      page.wrapped(
        "Press \(state.keyName(.retry, in: .signIn)) to try again with a fresh attempt, "
          + "\(state.keyName(.back, in: .signIn)) to go back.", role: .details, in: &buffer)
      return
    }
    let demo = demoSentence(attempt, state: state, now: now)
    // What gives way, on a short screen, to the address: the blank row above the countdown,
    // then the sentence about a browser on another machine (its key stays in the hints).
    var gap = 1
    var secondary = true
    if attempt.method == .pkce {
      let opened = attempt.browserOpened && attempt.browserProblem == nil
      let intro: String
      if let demo, opened {
        intro = demo + " Or open this address yourself:"
      } else if opened {
        intro = "Your browser shows \(name)'s consent page. Approve there, or open this address:"
      } else {
        intro = "Open this address in a browser and approve:"
      }
      page.wrapped(intro, role: .details, in: &buffer)
      // The address is read whole where the copy key cannot reach a clipboard (a terminal
      // without OSC 52, tmux that drops it): it gets every row the waiting line and the
      // countdown leave, the blank row and the secondary sentence below giving theirs first
      // when it needs them; those are dropped whole, never cut.
      let address = progress?.authorizationURL?.absoluteString ?? ""
      let whole = TextWrap.lines(address, width: page.rect.size.columns).count
      if attempt.paste == nil,
        page.remaining - 1 - waitingRows(attempt, state: state, page, secondary: true) < whole
      {
        secondary = false
        if page.remaining - 1 - waitingRows(attempt, state: state, page, secondary: false) < whole {
          gap = 0
        }
      }
      let below = waitingRows(attempt, state: state, page, secondary: secondary)
      page.wrapped(
        address, role: .url, limit: max(1, page.remaining - gap - below), in: &buffer)
    } else {
      if let qr = QRPlacement(progress, in: area) {
        qr.draw(in: &buffer)
        page = Page(qr.textArea)
      }
      page.line([("On any device, open", .details)], in: &buffer)
      page.wrapped(
        progress?.verificationURI?.absoluteString ?? "", role: .url, limit: 2, in: &buffer)
      page.line(
        [("and enter the code ", .details), (progress?.userCode ?? "", .code)], in: &buffer)
      if let demo, attempt.browserOpened, attempt.browserProblem == nil {
        page.wrapped(demo, role: .details, in: &buffer)
      }
      if let code = progress?.userCode,
        let big = BigText.lines(code, width: page.rect.size.columns - 2), page.remaining >= 8
      {
        page.skip()
        for line in big { page.line([(line, .code)], indent: 1, in: &buffer) }
      }
    }
    page.skip(gap)
    drawWaiting(attempt, state: state, page: &page, secondary: secondary, now: now, in: &buffer)
  }

  /// What the demo's approver does with this attempt's page, counting down to its answer;
  /// nil outside the demo.
  static func demoSentence(_ attempt: SignInAttemptState, state: AppState, now: Date) -> String? {
    guard let answer = attempt.demoAnswer else { return nil }
    let page = attempt.method == .pkce ? "\(attempt.provider.name)'s consent page" : "the page"
    let code = attempt.method == .pkce ? "" : ", enters the code"
    guard let answersAt = attempt.demoAnswersAt else {
      return "The demo's approver is opening \(page), as a browser would."
    }
    let seconds = Int(clamping: answersAt.timeIntervalSince(now).rounded(.up))
    let name: String
    switch answer {
    case .approve(let label): name = label ?? state.configuration.demoApprover ?? "demo-user"
    case .deny, .ignore: name = ""
    }
    guard seconds > 0 else {
      switch answer {
      case .approve: return "The demo's approver approved \(page) as \(name)."
      case .deny: return "The demo's approver declined \(page)."
      case .ignore:
        return "The demo's approver closed \(page) without answering (a silent denial): "
          + "only the countdown ends this sign-in."
      }
    }
    let opened = "The demo's approver has \(page) open\(code)"
    switch answer {
    case .approve: return "\(opened) and approves as \(name) in \(seconds) s."
    case .deny: return "\(opened) and declines in \(seconds) s."
    case .ignore: return "\(opened) and closes it unanswered in \(seconds) s (a silent denial)."
    }
  }

  /// The QR code of a device or PIN sign-in's address (the one that fills the code in, when
  /// the provider gives it), at the right of the flow screen, where the terminal has room for
  /// it, its quiet zone and a caption beside text at least `minimumTextColumns` wide.
  /// On a tall terminal too narrow for that, it goes below the text instead, which keeps at
  /// least `minimumTextRows` rows (the address, the code, the wait and the countdown).
  struct QRPlacement {
    static let minimumTextColumns = 40
    static let minimumTextRows = 9
    let lines: [String]
    let origin: Point
    let textArea: Rect

    init?(_ progress: SignInProgress?, in area: Rect) {
      guard let address = progress?.verificationURIComplete ?? progress?.verificationURI,
        let code = try? QRCode(text: address.absoluteString)
      else { return nil }
      let width = code.columns()
      let lines = code.halfBlockLines(colored: false)
      // The code, its caption, and a blank row between it and the text when below.
      let height = lines.count + 1
      if area.size.columns >= width + 2 + Self.minimumTextColumns, area.size.rows >= height {
        origin = Point(row: area.top, column: area.right - width)
        textArea = Rect(
          row: area.top, column: area.left, rows: area.size.rows,
          columns: area.size.columns - width - 2)
      } else if area.size.columns >= width,
        area.size.rows >= Self.minimumTextRows + 1 + height
      {
        origin = Point(
          row: area.bottom - height, column: area.left + (area.size.columns - width) / 2)
        textArea = Rect(
          row: area.top, column: area.left, rows: area.size.rows - height - 1,
          columns: area.size.columns)
      } else {
        return nil
      }
      self.lines = lines
    }

    func draw(in buffer: inout ScreenBuffer) {
      for (offset, line) in lines.enumerated() {
        buffer.write(line, at: Point(row: origin.row + offset, column: origin.column), role: .qr)
      }
      let caption = "scan to open the page"
      let width = DisplayWidth.of(lines.first ?? "")
      buffer.write(
        caption,
        at: Point(
          row: origin.row + lines.count,
          column: origin.column + max(0, (width - DisplayWidth.of(caption)) / 2)),
        role: .listSecondary, maxWidth: width)
    }
  }

  /// How many rows `drawWaiting` takes below `page`'s next row (it is drawn on a copy of the
  /// screen to count them).
  private static func waitingRows(
    _ attempt: SignInAttemptState, state: AppState, _ page: Page, secondary: Bool
  ) -> Int {
    var probe = Page(
      Rect(
        row: 0, column: page.rect.left, rows: Int.max / 2, columns: page.rect.size.columns))
    var scratch = ScreenBuffer(size: Size(rows: 1, columns: page.rect.right))
    drawWaiting(
      attempt, state: state, page: &probe, secondary: secondary, now: attempt.startedAt,
      in: &scratch)
    return probe.row
  }

  /// The waiting line, the countdown and any warning; with `secondary`, below them what to
  /// do with a browser on another machine (or the paste field, once open).
  private static func drawWaiting(
    _ attempt: SignInAttemptState, state: AppState, page: inout Page, secondary: Bool,
    now: Date, in buffer: inout ScreenBuffer
  ) {
    let progress = attempt.progress
    let waiting: String
    var role = Role.statusBusy
    switch progress?.phase {
    case .waitingForApproval?:
      let next = progress?.nextPollAt.map {
        max(0, Int(clamping: $0.timeIntervalSince(now).rounded(.up)))
      }
      var text = " Waiting for approval"
      if let trouble = progress?.pollTrouble {
        // The provider did not answer the last poll: the next one backs off, the wait goes on.
        text = " Provider unreachable, retrying (\(trouble))"
        if let next { text += " in \(next) s" }
        role = .statusWarning
      } else {
        if let next { text += " · next check in \(next) s" }
        if let interval = progress?.pollInterval { text += " (every \(Int(clamping: interval)) s)" }
      }
      waiting = text
    default:
      waiting = " Waiting for \(attempt.provider.name)'s answer…"
    }
    // Wrapped, not cut, beside a QR code: the rows after the first line up under its text.
    let width = max(1, page.rect.size.columns - 2)
    let text = String(waiting.dropFirst())
    // Too long for the row: the next check gets a row of its own before any word is split.
    let lines =
      DisplayWidth.of(text) <= width
      ? [text]
      : text.components(separatedBy: " · ").flatMap { TextWrap.lines($0, width: width) }
    for (index, line) in lines.enumerated() {
      page.line(
        [(index == 0 ? Chrome.spinner(at: now) : " ", .spinner), (" " + line, role)], in: &buffer)
    }
    drawCountdown(attempt, page: &page, now: now, in: &buffer)
    if let notice = progress?.warning {
      page.wrapped("! " + notice, role: .statusWarning, in: &buffer)
    }
    guard secondary, attempt.method == .pkce, progress?.phase == .waitingForBrowser else {
      return
    }
    page.skip()
    if let paste = attempt.paste {
      drawPasteField(paste, page: &page, in: &buffer)
      return
    }
    page.wrapped(
      "Browser on another machine? Approve there, then press "
        + "\(state.keyName(.pasteRedirect, in: .signIn)) and paste the address it ended on.",
      role: .listSecondary, in: &buffer)
    if let port = attempt.provider.fixedRedirectPort {
      page.wrapped(
        "Or forward the port first: ssh -L \(port):127.0.0.1:\(port) THIS-HOST",
        role: .listSecondary, in: &buffer)
    }
  }

  /// The countdown bar to the attempt's deadline, from its start.
  private static func drawCountdown(
    _ attempt: SignInAttemptState, page: inout Page, now: Date, in buffer: inout ScreenBuffer
  ) {
    guard let deadline = attempt.progress?.deadline, !page.isFull else { return }
    Chrome.countdownBar(
      remaining: deadline.timeIntervalSince(now),
      total: deadline.timeIntervalSince(attempt.startedAt), width: min(page.rect.size.columns, 60),
      at: Point(row: page.row, column: page.rect.left), in: &buffer)
    page.skip()
  }

  private static func drawPasteField(
    _ field: TextField, page: inout Page, in buffer: inout ScreenBuffer
  ) {
    page.line([("Address the browser ended on:", .inputLabel)], in: &buffer)
    guard !page.isFull else { return }
    let row = page.row
    let area = page.rect
    buffer.fill(
      Rect(row: row, column: area.left, rows: 1, columns: area.size.columns), role: .input)
    // Show the end of a long URL: that is where the user's typing is.
    var shown = field.text
    while DisplayWidth.of(shown) > area.size.columns - 1 { shown.removeFirst() }
    let end = buffer.write(shown, at: Point(row: row, column: area.left), role: .input)
    if field.isEmpty {
      buffer.write(
        "http://127.0.0.1:PORT/callback?code=…", at: Point(row: row, column: area.left),
        role: .inputPlaceholder)
    }
    buffer.cursor = Point(row: row, column: end)
    page.skip()
  }
}
