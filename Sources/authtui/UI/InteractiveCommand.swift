import AgentProtocol
import App
import Foundation
import Providers
import Session
import System
import Terminal
import TerminalCurses
import Theme
import Vault

/// What the command line says about the UI: the global options, and whether it is the demo.
struct InteractiveOptions {
  var isDemo: Bool
  var vault: String?
  var config: String?
  var theme: String?
  var noColor: Bool
}

/// `authtui` with no command (the account manager) and `authtui demo` (the same on the demo's
/// sandbox and throwaway vault).
///
/// Runs synchronously on the process's main thread, before any top-level `await` (the curses
/// screen needs that thread for prompt resizes); background work reaches the loop through its
/// mailbox.
enum InteractiveCommand {
  /// Runs the UI; `access` is how the command line opens the vault and leaves an agent,
  /// `complain` writes a line to standard error.
  static func run(
    _ options: InteractiveOptions, access: CommandLineAccess,
    complain: (String) -> Void,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> ExitCode {
    let isDemo = options.isDemo
    let userConfiguration = ConfigurationLocation.resolve(
      explicitPath: options.config, environment: environment)
    // The demo's throwaway configuration folder holds no themes: it has the built-in ones.
    let themes = Self.themes(in: isDemo ? nil : userConfiguration)
    // A --theme that cannot be used is a usage error, said before a terminal is needed (a
    // broken theme file is named with its line).
    if let requested = options.theme {
      do {
        _ = try themes.theme(named: requested)
      } catch {
        complain("authtui: \(error)")
        return .usage
      }
    }
    if let problem = TerminfoProbe.problem(term: environment["TERM"]) {
      complain("authtui: \(problem)")
      return .failure
    }
    let demo: DemoSetup?
    let setup: VaultSetup
    if isDemo {
      do {
        let made = try DemoSetup.make()
        demo = made
        setup = made.vaultSetup
      } catch {
        complain("authtui: the demo could not start: \(error)")
        return .failure
      }
    } else {
      demo = nil
      setup = VaultSetup(
        location: VaultLocation.resolve(
          explicitPath: options.vault, environment: environment),
        // The UI reads the terminal while a passphrase command runs: it is not lent to it.
        configuration: userConfiguration,
        passphrase: PassphraseSource.current(environment: environment).keepingTheTerminal(),
        newVaultParameters: .interactive)
    }
    defer { demo?.cleanUp() }

    let noColor = options.noColor
    let colors = ColorMode(environment: environment, noColorFlag: noColor)
    let settings = InterfaceSettings(
      configuration: setup.configuration, themes: themes, requestedTheme: options.theme,
      colorsOff: colors == .monochrome, readsProviderFiles: demo == nil)

    let screen: CursesScreen
    do {
      // SIGINT, SIGTERM and SIGHUP are TerminationSignals': they end the loop (below).
      var configuration = CursesScreen.Configuration.standard(
        environment: environment, noColorFlag: noColor)
      configuration.handlesTerminationSignals = false
      screen = try CursesScreen(configuration: configuration)
    } catch {
      complain("authtui: \(error)")
      return .failure
    }
    let mailbox: Mailbox<AppLoop.Message>
    do {
      mailbox = try Mailbox(waking: screen.waker)
    } catch {
      screen.shutdown()
      complain("authtui: \(error)")
      return .failure
    }
    let launcher = BrowserLauncher.available(environment: environment)
    let approver = DemoApprover()
    let useApprover = demo != nil && launcher == nil
    let clearAfter = settings.clipboardClearAfter
    let world = AccountsEnvironment(
      setup: setup, access: access, terminal: TerminalClipboard(mailbox: mailbox),
      environment: environment, clearAfter: clearAfter,
      openPage: { url, userCode, answer in
        if useApprover { return approver.answer(url, userCode: userCode, with: answer) }
        return BrowserReport.opening(url, with: launcher)
      })
    let state = AppState(
      configuration: AppConfiguration(
        vaultPath: ConfigurationLocation.display(setup.location.fileURL),
        configDirectory: ConfigurationLocation.display(setup.configuration.directory),
        browserAvailable: launcher != nil || useApprover, clipboardClearAfter: clearAfter,
        demoNotice: demo == nil ? nil : DemoSetup.notice,
        demoApprover: useApprover ? approver.username : nil,
        issuerSuggestion: demo?.dynamicIssuer),
      keys: settings.keys, notices: settings.notices)
    // Once the accounts show, what starting touched of the libraries' code is given back
    // (StartupPages); what the UI uses from then on comes back from the page cache.
    let loop = AppLoop(
      screen: screen, theme: settings.theme, state: state, environment: world, mailbox: mailbox,
      settled: { StartupPages.release() })
    // SIGTERM, SIGHUP (and SIGINT) end the loop, so the terminal is restored before the process
    // ends by that signal (main.swift); a refresh being stored finishes first.
    TerminationSignals.shared.setTerminator { _ in mailbox.post(.stop) }
    let final = loop.run()
    screen.shutdown()
    TerminationSignals.shared.waitForCriticalSections(timeout: 60) {
      complain("authtui: storing a token refresh before exiting…")
    }
    if case .unusable(let problem) = final.phase {
      complain("authtui: \(problem)")
      return .failure
    }
    return .ok
  }

  /// The built-in themes and, with a configuration folder, the user's, read as every
  /// configuration file is (no FIFO opened, a size limit).
  static func themes(in configuration: ConfigurationLocation?) -> ThemeCatalog {
    guard let configuration else { return ThemeCatalog() }
    return ThemeCatalog(
      userThemesDirectory: configuration.themesDirectory.path,
      readFile: { path throws(ConfigurationFileError) in try ConfigurationFile.read(path: path) })
  }
}
