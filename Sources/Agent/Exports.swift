// The wire protocol is part of the agent's API, and lives in its own small module so that the
// front of `authtui` can speak it without linking the rest of the agent.
@_exported import AgentProtocol
