#if canImport(Glibc)
  import Glibc
#endif

// The composition root: parse the command line, then hand over to one command.
let console = Console()
let catalog = CommandCatalog.standard
let invocation: Invocation
do {
  invocation = try ArgumentParser(catalog: catalog).parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  console.err(error.line)
  exit(ExitCode.usage.rawValue)
}

if invocation.flag("version") {
  console.out("authtui \(BuildInfo.version)")
  exit(ExitCode.ok.rawValue)
}
if invocation.flag("help") {
  exit(HelpCommand.run(topic: invocation.command, catalog: catalog, console: console).rawValue)
}

// The interactive UI runs here, on the main thread and before any `await` below: curses needs
// that thread to see resizes at once.
if invocation.command.isEmpty || invocation.command == "demo" {
  exit(InteractiveCommand.run(invocation, console: console).rawValue)
}

let status: ExitCode
switch invocation.command {
case "help":
  status = HelpCommand.run(topic: invocation.arguments.first, catalog: catalog, console: console)
case "providers":
  status = ProvidersCommand.run(invocation, console: console)
case "vault":
  status = await VaultCommand.run(invocation, console: console)
case "login":
  status = await LoginCommand.run(invocation, console: console)
case "logout":
  status = await LogoutCommand.run(invocation, console: console)
case "token":
  status = await TokenCommand.run(invocation, console: console)
case "agent":
  status = await AgentCommand.run(invocation, console: console)
case "list":
  status = await ListCommand.run(invocation, console: console)
case "export":
  status = await ExportCommand.run(invocation, console: console)
default:
  status = HelpCommand.run(topic: nil, catalog: catalog, console: console)
}
exit(status.rawValue)
