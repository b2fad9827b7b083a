// An account's name and the facts shown of it (`AccountName`, `AccountSummary`,
// `RefreshSchedule`) live in their own small module, shared with the agent's protocol and the
// small front; they are part of the accounts' API.
@_exported import AccountFacts
