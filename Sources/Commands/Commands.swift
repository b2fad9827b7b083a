/// The catalog of every command this build offers.
extension CommandCatalog {
  /// Every command, in the order `--help` lists them.
  package static let standard = CommandCatalog(
    interactive: AccountManagerCommand.self,
    commands: [
      LoginCommand.self, LogoutCommand.self, TokenCommand.self, ExecCommand.self,
      AgentCommand.self, ListCommand.self, StatusCommand.self, DefaultCommand.self,
      RenameCommand.self, ExportCommand.self, SSHCommand.self, CompletionCommand.self,
      GitCredentialCommand.self,
      ProvidersCommand.self, DemoCommand.self, VaultCommand.self, HelpCommand.self,
    ])
}
