/// The catalog of every command this build offers.
extension CommandCatalog {
  /// Every command, each with its runner.
  package static let standard: CommandCatalog = CommandCatalog(
    interactive: CommandSpec(
      name: "", usage: "[--vault PATH] [--config DIR] [--theme NAME] [--no-color]",
      summary: "Open the interactive account manager.", details: "",
      arguments: [], requiredArguments: 0, options: []),
    commands: [
      LoginCommand.spec.running { await LoginCommand.run($0, console: $1) },
      LogoutCommand.spec.running { await LogoutCommand.run(.init($0), console: $1) },
      TokenCommand.spec.running { (invocation) throws(CommandFailure) in
        try TokenCommand.Options(invocation)
      } _: {
        await TokenCommand.run($0, console: $1)
      },
      ExecCommand.spec.running { (invocation) throws(CommandFailure) in
        try ExecCommand.Options(invocation)
      } _: {
        await ExecCommand.runThenExit($0, console: $1)
      },
      AgentCommand.spec.running { await AgentCommand.run($0, console: $1) },
      ListCommand.spec.running {
        await ListCommand.run(.init($0, json: ListCommand.jsonFlag), console: $1)
      },
      StatusCommand.spec,
      DefaultCommand.spec.running { await DefaultCommand.run($0, console: $1) },
      RenameCommand.spec.running { await RenameCommand.run($0, console: $1) },
      ExportCommand.spec.running { (invocation) throws(CommandFailure) in
        try ExportCommand.Options(invocation)
      } _: {
        await ExportCommand.run($0, console: $1)
      },
      CompletionCommand.spec.running { await CompletionCommand.run($0, console: $1) },
      GitCredentialCommand.spec.running { await GitCredentialCommand.run($0, console: $1) },
      ProvidersCommand.spec.running {
        ProvidersCommand.run(.init($0, json: ProvidersCommand.jsonFlag), console: $1)
      },
      CommandSpec(
        name: "demo", usage: "demo",
        summary: "Try authtui against the built-in sandbox provider, with a throwaway vault.",
        details: """
          Nothing leaves this machine: the sandbox provider runs inside authtui on 127.0.0.1,
          the vault is a temporary file deleted on exit, and no provider registration is needed.
          """,
        arguments: [], requiredArguments: 0, options: []),
      CommandSpec(
        name: "vault", usage: "vault init|status|passwd",
        summary: "Create the encrypted vault, show its facts, or change its passphrase.",
        details: """
          init     create the vault (0600, in a 0700 folder); the passphrase is asked twice
          status   the path, schema, key derivation, account count and whether the file
                   permissions are safe; needs no passphrase and shows no secret
          passwd   change the passphrase (only the wrapped data key is rewritten)

          The passphrase comes from AUTHTUI_PASSPHRASE, AUTHTUI_PASSPHRASE_FILE (its first
          line) or AUTHTUI_PASSPHRASE_COMMAND (the first line it prints), else the terminal.
          For passwd, the new one comes from AUTHTUI_NEW_PASSPHRASE, …_FILE or …_COMMAND,
          else the terminal. Exit code 3 when the passphrase is wrong.
          """,
        arguments: ["ACTION"], requiredArguments: 1, options: []
      ).running { await VaultCommand.run($0, console: $1) },
      CommandSpec(
        name: "help", usage: "help [COMMAND [ACTION]] [--man]",
        summary: "Show the command list, or the help of one command.",
        details: "`authtui help --man | man -l -` reads all of it as a manual page.",
        arguments: ["COMMAND", "ACTION"], requiredArguments: 0, options: [HelpCommand.manOption]
      ).running { invocation, console in
        guard !invocation.flag(HelpCommand.manOption) else {
          console.out(ManPage.render(.standard, date: ManPage.date()))
          return .ok
        }
        return HelpCommand.run(
          topic: invocation.arguments.joined(separator: " "), catalog: .standard,
          console: console)
      },
    ])
}
