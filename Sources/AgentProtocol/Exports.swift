// The answers carry account facts (`AccountSummary`, `AccountName`): whoever speaks the
// protocol names them.
@_exported import AccountFacts
// The wire of the front's one request, the agent's socket and the blocking client, without
// Foundation: both sides of the socket use them through this module.
@_exported import AgentWire
