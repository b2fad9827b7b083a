import Foundation
import Sandbox
import TestSupport
import Vault

#if canImport(Glibc)
  import Glibc
#endif

/// An end-to-end run of the UI in tmux over a `SandboxWorkspace`.
struct UIFixture: Sendable {
  static let passphrase = SandboxWorkspace.passphrase

  let workspace: SandboxWorkspace

  /// Starts the workspace (with `loginTimeout` seconds for browser sign-ins; no client id in
  /// the provider files `withoutClientID` names).
  static func start(loginTimeout: Int? = nil, withoutClientID: Set<String> = []) async throws
    -> UIFixture
  {
    UIFixture(
      workspace: try await SandboxWorkspace.start(
        loginTimeout: loginTimeout, withoutClientID: withoutClientID))
  }

  /// The shell command that runs `authtui`, then keeps the pane so its end can be read.
  var command: String {
    "\(Products.authtui); echo authtui-exit=$?; exec sleep 600"
  }

  /// The environment of the UI: the workspace's, with no passphrase variable.
  func environment(browserAction: String = "approve") -> [String: String?] {
    workspace.environmentChanges(browserAction: browserAction)
  }

  /// Runs the UI in tmux with the passphrase in `AUTHTUI_PASSPHRASE` (no unlock screen), from
  /// the empty account list unless `waitingForTheList` is false.
  func runUnlocked(
    waitingForTheList: Bool = true, _ body: (TmuxSession) async throws -> Void
  ) async throws {
    var environment = environment()
    environment["AUTHTUI_PASSPHRASE"] = UIFixture.passphrase
    try await TmuxSession.run(command, environment: environment) { tmux in
      if waitingForTheList { try await tmux.waitFor("No accounts yet.") }
      try await body(tmux)
    }
  }

  /// The access token the vault holds for `provider/label`.
  func accessToken(provider: String, label: String) async throws -> String? {
    try await workspace.withVault { vault in
      try await vault.account(providerID: provider, label: label)?.tokens.accessToken
    }
  }

  /// How many accounts the vault holds.
  func accountCount() async throws -> Int {
    try await workspace.withVault { vault in try await vault.listAccounts().accounts.count }
  }

  func stop() async {
    await workspace.stop()
  }
}

extension TmuxSession {
  /// Moves the provider list's selection to the row of `provider` (by its name's first 12
  /// characters, as a narrow column may cut it): the list is sorted by id, and counting rows
  /// would break with every preset added.
  func select(provider: String) async throws {
    let screen = try await waitFor("Choose a provider")
    let start = screen.firstIndex { $0.contains("Choose a provider") } ?? 0
    let name = String(provider.prefix(12))
    func isRow(_ line: String, of name: String) -> Bool {
      line.drop { $0 == " " || $0 == "›" }.hasPrefix(name)
    }
    guard let target = screen.indices.first(where: { $0 > start && isRow(screen[$0], of: name) }),
      let selected = screen.indices.first(where: {
        $0 > start && screen[$0].drop { $0 == " " }.hasPrefix("›")
      })
    else { throw WorkspaceError("no \(provider) in the provider list: \(screen)") }
    let key = target > selected ? "j" : "k"
    for _ in 0..<abs(target - selected) { try await sendKeys(key) }
    _ = try await waitUntil("\(provider) selected") { lines in
      lines.contains { $0.drop { $0 == " " }.hasPrefix("› " + name) }
    }
  }

  /// Quits with `q` and waits for the shell's `authtui-exit=0`: authtui ended, and ended well.
  func quit() async throws {
    try await sendKeys("q")
    try await waitFor("authtui-exit=0")
  }

  /// Unlocks the vault from the unlock screen.
  func unlock() async throws {
    try await waitFor("Unlock your vault")
    try await type(UIFixture.passphrase)
    try await sendKeys("Enter")
  }

  /// Opens the sign-in, chooses `provider`, then its first flow (a provider with one flow has
  /// no choice to make); with `message`, waits for it after the last key, from the same thread
  /// (`press(_:thenWaitFor:)`: "signed in: …" shows only for a while) and returns that screen.
  @discardableResult
  func signIn(provider: String, choosingFlow: Bool = true, thenWaitFor message: String? = nil)
    async throws -> [String]
  {
    try await sendKeys("a")
    try await select(provider: provider)
    if choosingFlow {
      try await sendKeys("Enter")
      try await waitFor("How do you want to sign in to \(provider)?")
    }
    guard let message else {
      try await sendKeys("Enter")
      return []
    }
    return try await press("Enter", thenWaitFor: message)
  }
}
