import AgentProtocol
import Commands
import Hardening
import System

#if canImport(Glibc)
  import Glibc
#endif

// The composition root: parse the command line, then hand over to one command.
// First, before anything opens a descriptor: a closed 0, 1 or 2 is held on /dev/null.
StandardDescriptors.guardClosed()
ProcessHardening.apply()  // before any secret is read: no core dump, no backtrace of memory
// Before any thread exists: the descriptors the caller handed down, for `exec`'s command.
_ = InheritedDescriptors.atStart
// The front's note that it found no agent for `token`, read and removed before any child can
// inherit it.
_ = AgentAbsenceNote.leftByFront
// Before any thread exists: termination signals wait for critical sections.
TerminationSignals.shared.install()
let console = Console()
let catalog = CommandCatalog.standard
let invocation: Invocation
do {
  invocation = try ArgumentParser(catalog: catalog).parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  console.err(error.line)
  exit(ExitCode.usage.rawValue)
}

// Every exit after a command wrote its result goes through `console.exitStatus`: a result
// standard output refused (`>/dev/full`) is a failure, not a success.
if invocation.wantsVersion {
  console.out("authtui \(BuildInfo.version)")
  exit(console.exitStatus(ExitCode.ok.rawValue))
}
if invocation.wantsHelp {
  let status = HelpCommand.run(topic: invocation.command, catalog: catalog, console: console)
  exit(console.exitStatus(status.rawValue))
}

// An empty or relative HOME would put the vault and settings somewhere unmeant.
if let failure = HomeFolderCheck.failure(invocation.global, command: invocation.command) {
  console.err(failure.line)
  exit(failure.exitStatus)
}

// The interactive UI runs here, on the main thread and before any `await` below: curses needs
// that thread to see resizes at once.
if invocation.command.isEmpty || invocation.command == "demo" {
  let global = invocation.global
  let status = InteractiveCommand.run(
    InteractiveOptions(
      isDemo: invocation.command == "demo", vault: global.vault, config: global.config,
      theme: global.theme, noColor: global.noColor),
    access: .commandLine, complain: console.err)
  TerminationSignals.shared.exitIfRequested()
  exit(console.exitStatus(status.rawValue))
}

// Every other command runs as the catalog says.
guard let run = catalog.command(named: invocation.command)?.run else {
  exit(console.exitStatus(HelpCommand.run(topic: nil, catalog: catalog, console: console).rawValue))
}
exit(console.exitStatus(await run(invocation, console).rawValue))
