// The exit statuses and the failure every command throws live in AgentProtocol, where the
// agent's answers and the small front use them too; whoever imports Commands gets them.
@_exported import AgentProtocol
