/// The catalog of every command this build offers.
extension CommandCatalog {
  static let standard = CommandCatalog(
    interactive: CommandSpec(
      name: "", usage: "[--vault PATH] [--config DIR] [--theme NAME] [--no-color]",
      summary: "Open the interactive account manager.", details: "",
      arguments: [], requiredArguments: 0, options: []),
    commands: [
      ProvidersCommand.spec,
      CommandSpec(
        name: "demo", usage: "demo",
        summary: "Try authtui against the built-in sandbox provider, with a throwaway vault.",
        details: """
          Nothing leaves this machine: the sandbox provider runs inside authtui on 127.0.0.1,
          the vault is a temporary file deleted on exit, and no provider registration is needed.
          """,
        arguments: [], requiredArguments: 0, options: []),
      CommandSpec(
        name: "help", usage: "help [COMMAND]",
        summary: "Show the command list, or the help of one command.", details: "",
        arguments: ["COMMAND"], requiredArguments: 0, options: []),
    ])
}
