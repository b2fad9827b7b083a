// How fast the UI answers with 10,000 accounts (Benchmarks/tui): the first frame after the
// vault is unlocked, a redraw after a keypress, and a filter keystroke, each rendered into the
// in-memory test screen and through curses into /dev/null.
//
//   TUIBenchmark [ACCOUNTS] [RUNS]      defaults: 10000 accounts, 101 runs
import Accounts
import App
import AuthCore
import Foundation
import Terminal
import TerminalCurses
import Theme

#if canImport(Glibc)
  import Glibc
#endif

let arguments = CommandLine.arguments
let accountCount = arguments.count > 1 ? Int(arguments[1]) ?? 10_000 : 10_000
let runs = arguments.count > 2 ? Int(arguments[2]) ?? 101 : 101
let now = Date()
let size = Size(rows: 24, columns: 80)

let providers = [
  ProviderSummary(id: try ProviderID("simkl"), name: "Simkl", methods: [.pin, .pkce]),
  ProviderSummary(id: try ProviderID("hivesigner"), name: "Hivesigner", methods: [.pkce]),
  ProviderSummary(id: try ProviderID("muhajir"), name: "Muhajir", methods: [.pkce]),
  ProviderSummary(
    id: try ProviderID("work"), name: "Work SSO", methods: [.pkce, .device], canRevoke: true),
]
let accounts = (0..<accountCount).map { number in
  let provider = providers[number % providers.count]
  return AccountSummary(
    name: AccountName(provider: provider.id, label: "user-\(number)"),
    providerName: provider.name,
    expiresAt: now.addingTimeInterval(Double(number % 7200)), obtainedAt: now,
    scopes: ["openid", "profile"], refreshable: number % 2 == 0)
}
let configuration = AppConfiguration(
  vaultPath: "~/.local/share/authtui/vault.db", configDirectory: "~/.config/authtui")
let theme = (try? ThemeCatalog().theme(named: "default")) ?? Theme(name: "plain", styles: [:])

/// The state right after unlocking, before the accounts arrive.
@MainActor func unlockedState() -> (AppState, RequestID) {
  var state = AppState(configuration: configuration)
  _ = state.apply(.resized(size), now: now)
  var accountsRequest = RequestID(0)
  for effect in state.apply(.finished(.start, .vault(.unlocked)), now: now) {
    if case .loadAccounts(let id) = effect { accountsRequest = id }
    if case .loadProviders = effect {
      _ = state.apply(.finished(effect, .providers(providers)), now: now)
    }
  }
  return (state, accountsRequest)
}

struct Figures {
  var samples: [Duration] = []
  var median: Duration { samples.sorted()[samples.count / 2] }
  var p95: Duration { samples.sorted()[min(samples.count - 1, samples.count * 95 / 100)] }
}

@MainActor func milliseconds(_ duration: Duration) -> String {
  let value =
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
  return String(format: "%8.2f ms", value)
}

/// Runs `body` `runs` times on a fresh screen from `makeScreen`, timing each.
@MainActor func measure(_ makeScreen: () -> any Screen, _ body: (any Screen) -> Void) -> Figures {
  var figures = Figures()
  let clock = ContinuousClock()
  let screen = makeScreen()
  for _ in 0..<runs {
    let start = clock.now
    body(screen)
    figures.samples.append(clock.now - start)
  }
  return figures
}

@MainActor func firstFrame(on screen: any Screen) {
  var (state, request) = unlockedState()
  _ = state.apply(
    .finished(.loadAccounts(request), .accounts(.success(AccountList(accounts: accounts)))),
    now: now)
  screen.invalidate()
  screen.render(AppView.render(state, size: screen.size, now: now), styles: theme.style(for:))
}

var listState: AppState = {
  var (state, request) = unlockedState()
  _ = state.apply(
    .finished(.loadAccounts(request), .accounts(.success(AccountList(accounts: accounts)))),
    now: now)
  return state
}()
var pressed = 0
@MainActor func keypress(on screen: any Screen) {
  // Down, and back up at the end of a stretch, so the selection wanders the list.
  pressed += 1
  _ = listState.apply(.key(pressed % 200 < 100 ? .down : .up), now: now)
  screen.render(AppView.render(listState, size: screen.size, now: now), styles: theme.style(for:))
}

var filterState: AppState = {
  var state = listState
  _ = state.apply(.key(.character("/")), now: now)
  return state
}()
var typed = 0
@MainActor func filterKeystroke(on screen: any Screen) {
  // Type "user-1", then delete it again: every keystroke filters all the accounts.
  let text = Array("user-1")
  let position = typed % (text.count * 2)
  typed += 1
  let key: KeyEvent = position < text.count ? .character(text[position]) : .backspace
  _ = filterState.apply(.key(key), now: now)
  screen.render(AppView.render(filterState, size: screen.size, now: now), styles: theme.style(for:))
}

@MainActor func inMemory() -> any Screen { InMemoryScreen(size: size) }

let nullOutput = open("/dev/null", O_WRONLY)
let nullInput = open("/dev/null", O_RDONLY)
var cursesScreen: CursesScreen?
@MainActor func curses() -> any Screen {
  if let cursesScreen { return cursesScreen }
  do {
    let screen = try CursesScreen(
      configuration: CursesScreen.Configuration(
        term: "xterm-256color", inputFD: nullInput, outputFD: nullOutput, requiresTerminal: false,
        bracketedPaste: false, handlesSignals: false))
    cursesScreen = screen
    return screen
  } catch {
    FileHandle.standardError.write(Data("TUIBenchmark: curses could not start: \(error)\n".utf8))
    exit(1)
  }
}

print(
  "authtui UI with \(accountCount) accounts, \(runs) runs each, 80×24 (median / 95th percentile)")
for (name, screen) in [("test buffer", inMemory), ("curses → /dev/null", curses)] {
  let first = measure(screen, firstFrame(on:))
  let key = measure(screen, keypress(on:))
  let filter = measure(screen, filterKeystroke(on:))
  print("  \(name)")
  print("    first frame after unlock  \(milliseconds(first.median))  \(milliseconds(first.p95))")
  print("    redraw after a keypress   \(milliseconds(key.median))  \(milliseconds(key.p95))")
  print("    a filter keystroke        \(milliseconds(filter.median))  \(milliseconds(filter.p95))")
}
cursesScreen?.shutdown()
